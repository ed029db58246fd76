// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>

#include <QMap>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <optional>
#include <string>

class QFormLayout;

namespace relaydesk {

class FieldError;

// The properties of a Service Bus queue, subscription or topic as fields
// (docs/window.md "Service Bus"), keyed by their Config.json names (each
// field's objectName): durations in ISO 8601 as the service writes them
// ("PT1M", "P14D"; empty: never), MaxDeliveryCount 1–1000, the switches.
// The form only collects: the broker's parse of the Config.json form is the
// one judge of ranges, and showError puts its message at the field it
// names. A subscription has no RequiresSession or ForwardTo (the broker
// refuses both on subscriptions for now). Update mode leaves RequiresSession and RequiresDuplicateDetection
// read-only (fixed at creation, as the service). GUI thread; owns its widgets.
class ServiceBusPropertiesForm final : public QWidget {
    Q_OBJECT
public:
    enum class Entity { Queue, Subscription, Topic };
    enum class Mode { Create, Update };

    ServiceBusPropertiesForm(Entity entity, Mode mode, QWidget *parent = nullptr);

    // Fills the fields from a Config.json "Properties" object (absent keys: empty / defaults).
    void setProperties(const nlohmann::json &properties);
    // The "Properties" object of the fields (empty durations left out).
    nlohmann::json properties() const;
    // The field of a property ("LockDuration"), or nullptr.
    QWidget *field(const QString &property) const { return m_fields.value(property); }
    QStringList propertyNames() const { return m_fields.keys(); }
    // Shows `message` under the field of the property it names; false when it names none.
    bool showError(const QString &message);
    void clearErrors();
    // Checks each filled property on its own — `check` is the broker's parse
    // of an entity with only that property, giving its refusal or nothing —
    // and shows every refusal at its field at once, in form order, the
    // keyboard on the first. Returns how many were refused.
    using PropertyCheck = std::function<std::optional<std::string>(const nlohmann::json &onlyThis)>;
    int checkEach(const PropertyCheck &check);
    // The message under a property's field (empty when none).
    QString error(const QString &property) const;

signals:
    void edited();

private:
    void addDuration(QFormLayout *form, const QString &property, const QString &label, const QString &placeholder);
    void addSwitch(QFormLayout *form, const QString &property, const QString &label, bool fixed);
    void addText(QFormLayout *form, const QString &property, const QString &label, const QString &placeholder);
    void track(const QString &property, QWidget *field, FieldError *error);

    Mode m_mode;
    QMap<QString, QWidget *> m_fields;
    QStringList m_order; // the properties in form order
    QMap<QString, FieldError *> m_errors;
};

} // namespace relaydesk
