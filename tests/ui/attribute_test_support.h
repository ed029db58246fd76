// SPDX-License-Identifier: MIT
#pragma once
// Helpers shared by the attribute editor, policy page and create dialog
// tests: a real engine on a real database file (ServiceBench, virtual clock),
// waiting for a page or dialog to settle, reading the broker's state back, and
// offscreen screenshots into the build tree (screenshots/NAME.png).

#include "support/engine_test_support.h"

#include "widgets/accessible_names.h"

#include <QAccessible>
#include <QCoreApplication>
#include <QDir>
#include <QLabel>
#include <QSignalSpy>
#include <QWidget>
#include <QTest>

namespace relaydesk::testing {

// Waits until `spy` has seen `count` signals (an upper bound, not a timing check).
inline bool waitForCount(QSignalSpy &spy, int count)
{
    for (int round = 0; round < kWaitMs / 10 && spy.count() < count; ++round)
        spy.wait(10);
    return spy.count() >= count;
}

inline AttributeMap queueAttributes(ServiceBench &bench, const std::string &name)
{
    auto result = bench.call<AttributeMap>(
        [&](auto reply) { bench.service().getQueueAttributes(name, {"All"}, nullptr, reply); });
    return result ? result.value() : AttributeMap{};
}

inline AttributeMap topicAttributes(ServiceBench &bench, const std::string &name)
{
    auto result = bench.call<AttributeMap>([&](auto reply) { bench.service().getTopicAttributes(name, nullptr, reply); });
    return result ? result.value() : AttributeMap{};
}

inline AttributeMap subscriptionAttributes(ServiceBench &bench, const std::string &arn)
{
    auto result = bench.call<AttributeMap>(
        [&](auto reply) { bench.service().getSubscriptionAttributes(arn, nullptr, reply); });
    return result ? result.value() : AttributeMap{};
}

inline std::string attributeOf(const AttributeMap &map, const std::string &name)
{
    const auto it = map.find(name);
    return it == map.end() ? std::string() : it->second;
}

// Every input labelled through a buddy has that label's text (without '&')
// as the name accessibility tools see (QAccessibleInterface, what AT-SPI
// reads) and takes keyboard focus. Returns the first mismatch, or empty.
inline QString accessibilityProblem(const QWidget &root)
{
    QStringList problems;
    for (const QLabel *label : root.findChildren<QLabel *>()) {
        QWidget *buddy = label->buddy();
        if (!buddy)
            continue;
        const QString expected = accessibleLabelText(label->text());
        // On Linux a combo box's accessible name is its current text (Qt ties the label by relation);
        // its accessibleName property then carries the label.
        QAccessibleInterface *accessible = QAccessible::queryAccessibleInterface(buddy);
        const QString name = accessibleLabelText(accessible ? accessible->text(QAccessible::Name) : QString());
        const QString given = accessibleLabelText(buddy->accessibleName());
        // A title that appends a live state after two blanks ("JSON  —  topic form") names its input by the first part.
        const QString stable = expected.section(QStringLiteral("  "), 0, 0);
        if (name != expected && given != expected && given != stable)
            problems << QStringLiteral("%1: accessible name '%2', label '%3'").arg(buddy->objectName(), name, expected);
        if (buddy->focusPolicy() == Qt::NoFocus)
            problems << QStringLiteral("%1 takes no keyboard focus").arg(buddy->objectName());
    }
    return problems.join(QStringLiteral("; "));
}

// A page under test with a spy on its settled() signal (load, apply or failure done).
template <class Page>
struct OpenPage {
    std::unique_ptr<Page> page;
    std::unique_ptr<QSignalSpy> settled;

    // Waits for the next settled() after those seen so far.
    bool settle() { return waitForCount(*settled, settled->count() + 1); }
};

template <class Page>
OpenPage<Page> openPage(ServiceBench &bench, EntityChange::Entity kind, const QString &name, QSize size)
{
    bench.deliverChanges();   // the entity's creation reaches nobody later
    OpenPage<Page> open;
    open.page = std::make_unique<Page>(bench.service(), bench.engine(), kind, name);
    open.settled = std::make_unique<QSignalSpy>(open.page.get(), &Page::settled);
    open.page->resize(size);
    return open;
}

// Saves `widget` as screenshots/NAME.png beside the test executable.
inline void saveScreenshot(QWidget &widget, const QString &name)
{
    const QString folder = QCoreApplication::applicationDirPath() + QStringLiteral("/screenshots");
    QDir().mkpath(folder);
    widget.grab().save(folder + QLatin1Char('/') + name + QStringLiteral(".png"));
}

} // namespace relaydesk::testing
