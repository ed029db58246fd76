// SPDX-License-Identifier: MIT
#pragma once

#include "broker/attribute_text.h"
#include "broker/broker_identity.h"
#include "broker/clock_time.h"
#include "broker/deliveries/mock_endpoint_records.h"
#include "broker/result.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <string>
#include <vector>

class QObject;

namespace relaydesk {

class BrokerEngine;
class BrokerService;
class Database;
class UnitContext;

// The broker configuration file (docs/behaviour.md §8.3): `relaydesk serve --config FILE`,
// POST/GET /api/v1/config, the window's File → Import/Export.
//
//   {"version": 1,
//    "region": "eu-west-1", "account": "123456789012",
//    "queues": [{"name": "orders-dlq"},
//               {"name": "orders", "attributes": {"VisibilityTimeout": "45",
//                    "RedrivePolicy": {"deadLetterTargetArn": "arn:aws:sqs:us-east-1:000000000000:orders-dlq",
//                                      "maxReceiveCount": 5}},
//                "tags": {"team": "shop"}}],
//    "topics": [{"name": "events", "attributes": {"DeliveryPolicy": {"healthyRetryPolicy": {…}}},
//                "tags": {…},
//                "subscriptions": [{"protocol": "sqs", "endpoint": "queue:orders",
//                                   "attributes": {"RawMessageDelivery": "true", "FilterPolicy": {…}}}]}],
//    "mocks": [{"name": "orders-hook", "script": "503 x 5, then 200"}],
//    "delete": {"queues": ["old"], "topics": ["old-events"],
//               "subscriptions": [{"topic": "events", "protocol": "http", "endpoint": "http://…"}]}}
//
//  - Every key is optional except the names, protocol and endpoint; unknown
//    keys are refused with their path. "version", when present, must be 1.
//  - Attribute values are the API's text; a JSON object or array is stored as
//    its compact text (policies are nicer to check in as objects), a number
//    or boolean as its text. Export writes values that are JSON objects or
//    arrays as JSON, the rest as strings.
//  - "region" and "account" (optional) say which broker the file is for:
//    `serve --config FILE` starts with them unless --region/--account say
//    otherwise; applying a file whose region or account differs from the
//    broker's is refused (InvalidParameterValue naming both), so ARNs in it
//    mean what they say. Export does not write them (files move between brokers).
//  - An sqs endpoint may be "queue:NAME" (this broker's queue) or the queue ARN.
//  - Subscriptions are matched by (topic, protocol, endpoint); declared ones
//    are confirmed at once (the file is trusted: no confirmation handshake).
//  - Applying: existing entities get the declared attributes and tags that
//    differ (an undeclared attribute or tag stays as it is); nothing is
//    deleted unless "delete" names it (deleting what does not exist is no
//    error). Order: deletions, mock endpoints, queues (RedrivePolicy last, so
//    dead-letter queues exist first), topics, subscriptions. An entity that
//    already has the declared values is not written at all: applying a file
//    twice changes nothing. A mock endpoint whose script changes starts it
//    afresh; the caller hands the applied mocks to the running MockEndpoints
//    (MockEndpoints::adopt), which config/ cannot reach.
//  - Export: queues, topics (with their subscriptions), mock endpoints (when
//    there are any: name and script) by name, attributes
//    that differ from the defaults of a fresh entity of that name (FifoQueue
//    / FifoTopic always for FIFO ones), every tag; so export → apply to an
//    empty broker → export gives the same document.
//  - Errors name the entity and field: `queues[1] (orders):
//    attributes.VisibilityTimeout: <the broker's message>`, with the broker's
//    code (file structure errors: InvalidParameterValue).

struct SubscriptionDeclaration {
    std::string protocol;
    std::string endpoint;   // an sqs endpoint as the queue ARN (after reading)
    AttributeMap attributes;
};

struct TopicDeclaration {
    std::string name;
    AttributeMap attributes;
    std::map<std::string, std::string> tags;
    std::vector<SubscriptionDeclaration> subscriptions;
};

struct QueueDeclaration {
    std::string name;
    AttributeMap attributes;
    std::map<std::string, std::string> tags;
};

struct SubscriptionReference {
    std::string topic;
    std::string protocol;
    std::string endpoint;
};

// The most entities one document may declare or delete (queues, topics,
// subscriptions and deletions together). A document is applied as one
// transaction, and the broker does nothing else meanwhile: 10 000 queues
// take about 0.3 s, 110 000 took 3.6 s during which every send waited
// (docs/figures.md "Many entities"). Bigger sets go in several documents.
inline constexpr std::size_t kMaxConfigEntities = 10'000;

struct BrokerConfig {
    std::vector<QueueDeclaration> queues;
    std::vector<TopicDeclaration> topics;
    std::vector<StoredMockEndpoint> mocks;   // requestCount unused
    std::vector<std::string> deleteQueues;
    std::vector<std::string> deleteTopics;
    std::vector<SubscriptionReference> deleteSubscriptions;
};

// What an apply did (counts of entities written; all zero = nothing changed).
struct ConfigApplied {
    int created = 0;
    int changed = 0;
    int deleted = 0;
};

// Reads and checks the whole document: structure, names, each attribute
// with the broker's parsers, duplicates, at most kMaxConfigEntities.
// Pure, thread-safe.
Result<BrokerConfig> readBrokerConfig(const nlohmann::json &document, const BrokerIdentity &identity);
// The same from file text / a file (errors also for unreadable or non-JSON files).
Result<BrokerConfig> readBrokerConfigText(const std::string &text, const BrokerIdentity &identity);
Result<BrokerConfig> readBrokerConfigFile(const std::string &path, const BrokerIdentity &identity);
// The file's "region"/"account" over `identity` (validated; a document that
// is not an object changes nothing). Pure.
Result<BrokerIdentity> readConfigIdentity(const nlohmann::json &document, BrokerIdentity identity);
// The same from a file (errors for unreadable or non-JSON files).
Result<BrokerIdentity> readConfigFileIdentity(const std::string &path, BrokerIdentity identity);
// The file's "region"/"account", when present, equal `identity`'s (else
// InvalidParameterValue naming both). Pure.
Status checkConfigIdentity(const nlohmann::json &document, const BrokerIdentity &identity);
// The document of a config (deterministic; see above). Pure.
nlohmann::json writeBrokerConfig(const BrokerConfig &config, const BrokerIdentity &identity);

// Inside a unit on the broker thread (the caller's transaction): applies
// `config` through the broker catalogs and reports the EntityChanges. On an
// error the caller's unit must roll back (BrokerEngine does), so a failing
// file changes nothing. Subscription ids are random.
Result<ConfigApplied> applyBrokerConfig(UnitContext &unit, const BrokerIdentity &identity, const BrokerConfig &config);
// Inside a unit: the current state. Reads only.
Result<BrokerConfig> exportBrokerConfig(Database &db, const BrokerIdentity &identity);

// Any thread: apply / export as one engine unit; the reply comes on
// `context`'s thread (or the broker thread without one). After an apply the
// service's lifetime timer is re-armed (a read through `service`), so idle
// auto-deletion of declared entities is scheduled.
void applyBrokerConfig(BrokerEngine &engine, BrokerService &service, const BrokerIdentity &identity,
                       BrokerConfig config, QObject *context, std::function<void(Result<ConfigApplied>)> reply);
void exportBrokerConfig(BrokerEngine &engine, const BrokerIdentity &identity, QObject *context,
                        std::function<void(Result<BrokerConfig>)> reply);
// Not on the broker thread: applyBrokerConfig above, waiting for its reply.
Result<ConfigApplied> applyBrokerConfigAndWait(BrokerEngine &engine, BrokerService &service,
                                               const BrokerIdentity &identity, BrokerConfig config);

} // namespace relaydesk
