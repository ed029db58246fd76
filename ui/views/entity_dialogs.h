// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <functional>

class QDialog;
class QWidget;

namespace relaydesk {

class EmbeddedBroker;
class EntityActions;

// The one place that chooses the dialog of each operation on an entity
// (create, subscribe, send, publish, move dead letters back). Each opens
// window-modal and non-blocking, calls the broker itself, shows the
// broker's error and stays open on failure, and deletes itself when closed.
// Returns the dialog (tests drive it). GUI thread; `host` must outlive it
// (the window closes dialogs before it stops a broker). A create dialog
// calls `created` with the new entity's name (a subscription: its ARN) once
// the broker made it.
using CreatedCallback = std::function<void(const QString &)>;
QDialog *openCreateQueueDialog(EmbeddedBroker &host, QWidget *parent, CreatedCallback created = {});
QDialog *openCreateTopicDialog(EmbeddedBroker &host, QWidget *parent, CreatedCallback created = {});
QDialog *openSubscribeDialog(EmbeddedBroker &host, const QString &topicName, QWidget *parent,
                             CreatedCallback created = {});
QDialog *openSendDialog(EmbeddedBroker &host, const QString &queueName, QWidget *parent);
QDialog *openPublishDialog(EmbeddedBroker &host, const QString &topicName, QWidget *parent);
QDialog *openMoveDeadLettersDialog(EmbeddedBroker &host, const QString &deadLetterQueueName, QWidget *parent);
// Service Bus (docs/window.md "Service Bus"): a new queue, topic or (of
// `topic`) subscription — `created` gets the new queue's or topic's name, a
// subscription's queue name — and a send to a queue or (`toTopic`) a topic.
QDialog *openServiceBusCreateDialog(EmbeddedBroker &host, int kind, const QString &topic, QWidget *parent,
                                    CreatedCallback created = {});
QDialog *openServiceBusSendDialog(EmbeddedBroker &host, const QString &entity, bool toTopic, QWidget *parent);
// "Try a policy" (TryPolicyDialog, then policy_trial::start) with `policyJson`; on success
// the dialog closes and the new subscription's Deliveries tab opens
// (EntityActions::requestOpen).
QDialog *openTryPolicyDialog(EmbeddedBroker &host, EntityActions &actions, const QString &policyJson, QWidget *parent);

// "QueueDoesNotExist: The specified queue does not exist." — a broker
// error's text for a person.
QString brokerErrorText(const struct BrokerError &error);

} // namespace relaydesk
