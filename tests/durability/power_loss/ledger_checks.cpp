// SPDX-License-Identifier: MIT
#include "power_loss/ledger_checks.h"

#include "durability_support.h"

#include "broker/store_calls.h"
#include "store/database.h"

#include <chrono>
#include <map>

namespace relaydesk::durability {
namespace {

std::string fail(const std::string &what) { return what; }

} // namespace

std::string checkLedger(ScenarioBroker &broker, const Ledger &ledger, bool refusedMayExist)
{
    Result<std::string> outcome = broker.engine().executeAndWait([&](Database &db, ClockTime) -> Result<std::string> {
        auto integrity = db.queryText("PRAGMA integrity_check");
        if (!integrity.ok())
            return fail("integrity_check: " + integrity.status().toString());
        if (*integrity != "ok")
            return fail("integrity_check: " + *integrity);
        std::string problem;
        const std::vector<StoredMessage> stored = storedMessages(db, &problem);
        if (!problem.empty())
            return fail(problem);
        std::map<std::string, const StoredMessage *> byBody;
        for (const StoredMessage &message : stored) {
            if (!byBody.emplace(message.body, &message).second)
                return fail("stored twice: " + message.body);
        }
        for (const auto &[body, sent] : ledger.live) {
            const auto found = byBody.find(body);
            if (found == byBody.end())
                return fail("acknowledged but not stored: " + body);
            if (found->second->queue != sent.queue)
                return fail("stored in " + found->second->queue + " instead of " + sent.queue + ": " + body);
            if (!sent.messageId.empty() && found->second->messageId != sent.messageId)
                return fail("stored with another MessageId: " + body);
            if (found->second->sequenceNumber != sent.sequenceNumber)
                return fail("stored with another SequenceNumber: " + body);
        }
        // FIFO order per group: by SequenceNumber, each group's bodies in the order they were sent (c=).
        std::map<std::string, long> lastCounter;
        for (const StoredMessage &message : stored) {
            if (message.queue != "work.fifo")
                continue;
            const std::size_t at = message.body.find(" c=");
            const long counter = at == std::string::npos ? -1 : std::stol(message.body.substr(at + 3));
            const auto last = lastCounter.find(message.group);
            if (last != lastCounter.end() && last->second >= counter)
                return fail("FIFO order broken in group " + message.group + " at " + message.body);
            lastCounter[message.group] = counter;
        }
        for (const auto &[body, count] : ledger.receives) {
            if (!ledger.live.contains(body))
                continue; // deleted since, or its delete unanswered
            Result<std::optional<std::int64_t>> stored = selectOptionalInt64(
                db, "SELECT m.receive_count FROM messages m JOIN queues q ON q.id = m.queue_id "
                    "WHERE q.name = 'work' AND m.body = ?",
                body);
            if (!stored || !*stored || **stored < count)
                return fail("acknowledged receives not counted: " + body);
        }
        for (const std::string &body : ledger.deleted) {
            if (byBody.contains(body))
                return fail("deleted but stored: " + body);
        }
        if (!refusedMayExist) {
            for (const std::string &body : ledger.refused) {
                if (byBody.contains(body))
                    return fail("refused but stored: " + body);
            }
        }
        for (const std::string &queue : ledger.queues) {
            Result<std::optional<std::int64_t>> id = selectOptionalInt64(db, "SELECT id FROM queues WHERE name = ?", queue);
            if (!id || !*id)
                return fail("acknowledged queue missing: " + queue);
        }
        if (!refusedMayExist) {
            for (const std::string &queue : ledger.refusedQueues) {
                Result<std::optional<std::int64_t>> id =
                    selectOptionalInt64(db, "SELECT id FROM queues WHERE name = ?", queue);
                if (!id || *id)
                    return fail("refused import stored: " + queue);
            }
        }
        if (ledger.visibilityTimeout) {
            Result<std::optional<std::int64_t>> seconds =
                selectOptionalInt64(db, "SELECT visibility_timeout_s FROM queues WHERE name = 'work'");
            if (!seconds || !*seconds)
                return fail("no VisibilityTimeout for work");
            const bool acknowledged = **seconds == *ledger.visibilityTimeout;
            const bool unanswered = refusedMayExist && ledger.visibilityInFlight && **seconds == *ledger.visibilityInFlight;
            if (!acknowledged && !unanswered)
                return fail("VisibilityTimeout " + std::to_string(**seconds) + ", acknowledged " +
                            std::to_string(*ledger.visibilityTimeout));
        }
        Result<std::vector<std::string>> mismatched = selectColumn<std::string>(
            db,
            "SELECT pm.message_id || ' stored attempt ' || pd.attempt || ', logged ' || "
            "(SELECT count(*) FROM delivery_attempts a WHERE a.message_id = pm.message_id "
            " AND a.subscription_arn LIKE '%' || s.uuid) "
            "FROM pending_deliveries pd JOIN published_messages pm ON pm.id = pd.published_id "
            "JOIN subscriptions s ON s.id = pd.subscription_id "
            "WHERE pd.attempt <> (SELECT count(*) FROM delivery_attempts a WHERE a.message_id = pm.message_id "
            " AND a.subscription_arn LIKE '%' || s.uuid)");
        if (!mismatched)
            return fail("pending deliveries: " + mismatched.error().message);
        if (!mismatched->empty())
            return fail("pending delivery out of step with its log: " + mismatched->front());
        return std::string();
    });
    return outcome ? *outcome : "check unit failed: " + outcome.error().message;
}

std::string checkRetriesResume(ScenarioBroker &broker, const Ledger &ledger)
{
    broker.endpoint().setScript({testing::respond(200)});
    for (int step = 0; step < 30; ++step) {
        Result<std::optional<std::int64_t>> pending = broker.engine().executeAndWait([](Database &db, ClockTime) {
            return selectOptionalInt64(db, "SELECT count(*) FROM pending_deliveries");
        });
        if (!pending || !*pending)
            return "pending count failed";
        if (**pending == 0)
            break;
        if (Result<ClockTime> advanced = broker.engine().advanceClockAndWait(std::chrono::seconds(2)); !advanced)
            return "advance failed: " + advanced.error().message;
    }
    Result<std::string> outcome = broker.engine().executeAndWait([&](Database &db, ClockTime) -> Result<std::string> {
        Result<std::optional<std::int64_t>> pending = selectOptionalInt64(db, "SELECT count(*) FROM pending_deliveries");
        if (!pending || !*pending || **pending != 0)
            return fail("deliveries still pending after the endpoint recovered");
        for (const std::string &messageId : ledger.publishedIds) {
            Result<std::vector<std::int64_t>> attempts = selectColumn<std::int64_t>(
                db,
                "SELECT a.attempt FROM delivery_attempts a JOIN subscriptions s ON a.subscription_arn LIKE '%' || s.uuid "
                "WHERE a.message_id = ? AND s.protocol = 'http' ORDER BY a.id",
                messageId);
            if (!attempts)
                return fail("attempt log: " + attempts.error().message);
            if (attempts->empty())
                return fail("acknowledged publish never attempted: " + messageId);
            for (std::size_t i = 0; i < attempts->size(); ++i) { // numbered from 0 (docs/behaviour.md §4.5)
                if ((*attempts)[i] != std::int64_t(i))
                    return fail("attempt " + std::to_string((*attempts)[i]) + " logged in place of attempt " +
                                std::to_string(i) + " of " + messageId);
            }
            Result<std::optional<std::int64_t>> delivered = selectOptionalInt64(
                db, "SELECT count(*) FROM delivery_attempts WHERE message_id = ? AND final = 'delivered'", messageId);
            if (!delivered || !*delivered || **delivered != 1)
                return fail("acknowledged publish not delivered exactly once: " + messageId);
        }
        return std::string();
    });
    return outcome ? *outcome : "check unit failed: " + outcome.error().message;
}

} // namespace relaydesk::durability
