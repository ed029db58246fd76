// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QLabel;

namespace relaydesk {

class ApplyBar;
class BrokerService;
class ServiceBusPropertiesForm;

// The Properties tab of a Service Bus entity (docs/window.md "Service Bus"):
// a queue's or subscription's properties, editable where the service
// allows an update (all but RequiresSession and RequiresDuplicateDetection),
// with Revert / Apply (servicebus_admin_calls::updateQueue; a refusal at
// the field it names); a subscription's rules and a topic's properties and
// subscriptions, read-only. Reads when made and after each Apply.
// Ownership: borrows the service. Thread: GUI.
class ServiceBusPropertiesPage final : public QWidget {
    Q_OBJECT
public:
    // `name`: a queue's or subscription's broker queue, or (`topic`) a topic's name.
    ServiceBusPropertiesPage(BrokerService &service, const QString &name, bool topic, QWidget *parent = nullptr);

    ServiceBusPropertiesForm *form() const { return m_form; }
    ApplyBar *applyBar() const { return m_apply; }
    QLabel *extra() const { return m_extra; }   // rules, or a topic's subscriptions
    bool isLoaded() const { return m_loaded; }

    void reload();
    void apply();

signals:
    void loaded();
    void applied();

private:
    void setModified(bool modified);

    BrokerService &m_service;
    const QString m_name;
    const bool m_topic;
    ServiceBusPropertiesForm *m_form = nullptr;
    ApplyBar *m_apply = nullptr;
    QLabel *m_extra = nullptr;
    bool m_modified = false;
    bool m_busy = false;
    bool m_loaded = false;
};

} // namespace relaydesk
