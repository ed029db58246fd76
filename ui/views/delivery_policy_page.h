// SPDX-License-Identifier: MIT
#pragma once

#include "broker/attribute_text.h"
#include "engine/entity_change.h"
#include "policy/effective_policy.h"

#include <QWidget>

#include <optional>

class QCheckBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace relaydesk {

class FieldError;

class ApplyBar;
class BrokerEngine;
class BrokerService;
class ChangedElsewhereBanner;
class PolicyEditor;

// The Policy tab of a topic or a subscription (docs/behaviour.md §2, 8.4): the existing
// PolicyEditor, embedded, editing that entity's DeliveryPolicy attribute
// (topic form for a topic, subscription form for a subscription; Zaqar in
// both). "Own delivery policy" off means the attribute is empty. Apply writes
// it through BrokerService; the broker's refusal is shown under the editor
// and at the field it names. For a subscription the page also shows the
// effective policy, value by value, with where each comes from (subscription /
// topic / default / fixed, docs/behaviour.md §2.3, resolveEffectivePolicy) and the topic's
// disableSubscriptionOverrides flag. sqs subscriptions have the fixed
// sns-aws-managed policy: the editor is read-only for them.
// A change made elsewhere reloads the page, or shows the banner while it
// holds edits.
//
// Ownership: borrows the service and the engine; owns its widgets. Thread:
// GUI thread; broker replies come back queued.
class DeliveryPolicyPage final : public QWidget {
    Q_OBJECT
public:
    DeliveryPolicyPage(BrokerService &service, BrokerEngine &engine, EntityChange::Entity kind, const QString &nameOrArn,
                       QWidget *parent = nullptr);
    ~DeliveryPolicyPage() override;
    DeliveryPolicyPage(const DeliveryPolicyPage &) = delete;
    DeliveryPolicyPage &operator=(const DeliveryPolicyPage &) = delete;

    void apply();
    void revert();

    PolicyEditor *editor() const { return m_editor; }
    QCheckBox *ownPolicyBox() const { return m_own; }
    // The effective-policy table (subscriptions; null for a topic): Field | Value | From.
    QTableWidget *effectiveTable() const { return m_effective; }
    QString overrideNote() const;
    ChangedElsewhereBanner *banner() const { return m_banner; }
    QString message() const;
    QString brokerError() const;
    bool isModified() const;
    bool isBusy() const { return m_busy; }

    // "Try a Policy…": asks for a trial of the editor's policy (tryPolicyRequested).
    QPushButton *tryButton() const { return m_try; }

signals:
    // After every load, apply or failure.
    void settled();
    // Try a Policy… was pressed: the editor's JSON text, as it is now.
    void tryPolicyRequested(const QString &policyJson);

private:
    void load(bool fromChange, const QString &note = {});
    void onLoaded(const AttributeMap &own, const AttributeMap &topic, bool fromChange);
    void showOwnPolicy(const QString &text);
    EffectivePolicy effectivePolicy() const;   // docs/behaviour.md §2.3 over what is stored
    void showEffective();
    void showBrokerError(const QString &message);
    void onChanges(const QList<EntityChange> &changes);
    void updateState();
    void showMessage(const QString &text, bool isError);
    void finish();
    bool isSubscription() const { return m_kind == EntityChange::Entity::Subscription; }

    BrokerService &m_service;
    EntityChange::Entity m_kind;
    QString m_name;
    QString m_topicName;             // the subscription's topic (or the topic itself)
    EndpointProtocol m_protocol = EndpointProtocol::Http;
    bool m_rawDelivery = false;
    QString m_storedText;            // the DeliveryPolicy attribute as stored ("" = none)
    QString m_topicText;             // the topic's DeliveryPolicy (subscriptions)
    QString m_shownText;             // the editor's text right after loading
    AttributeMap m_pendingOwn;       // loaded after a change elsewhere, banner up
    AttributeMap m_pendingTopic;
    PolicyEditor *m_editor = nullptr;
    QCheckBox *m_own = nullptr;
    QLabel *m_fixedNote = nullptr;
    QTableWidget *m_effective = nullptr;
    QLabel *m_override = nullptr;
    FieldError *m_error = nullptr;
    ChangedElsewhereBanner *m_banner = nullptr;
    ApplyBar *m_bar = nullptr;
    QPushButton *m_try = nullptr;
    bool m_busy = false;
    bool m_gone = false;
    bool m_recheck = false;
    QString m_note;
};

} // namespace relaydesk
