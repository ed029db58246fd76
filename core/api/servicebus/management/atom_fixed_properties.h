// SPDX-License-Identifier: MIT
#pragma once

#include "api/servicebus/management/atom_element.h"
#include "broker/result.h"

#include <QStringView>

#include <optional>
#include <span>

namespace relaydesk {

// A property of the service's descriptions that Relaydesk does not
// implement (docs/behaviour.md §8.6 "Management API"): every description of
// its kind is written with `value`, and a PUT may only give that value
// (what a client echoes back from a GET) — any other is refused naming the
// property, never ignored. `kinds` are the descriptions that carry it
// ("QueueDescription TopicDescription …"). Value type.
struct FixedProperty {
    QStringView kinds;
    QStringView name;
    QStringView value;   // as the description writes it; empty: written empty, given only empty
    QStringView why;     // the refusal's reason
};

// The table, in no particular order.
std::span<const FixedProperty> fixedProperties();
// The fixed property `name` of the description `kind`, if it is one.
std::optional<FixedProperty> fixedProperty(QStringView kind, QStringView name);
// Whether `given` holds the fixed value (AuthorizationRules: no rule);
// InvalidParameterValue naming the property otherwise. Pure.
Status checkFixedProperty(const FixedProperty &fixed, const AtomElement &given);

} // namespace relaydesk
