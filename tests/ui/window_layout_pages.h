// SPDX-License-Identifier: MIT
#pragma once
// What window_layout_test looks at on every page: scroll areas that scroll
// sideways, the broker time, labels cut short, table cells elided (each
// returns what it found wrong, in words; empty: nothing); and the pages it
// opens: the sizes, the entities of the page matrix, the tabs.

#include "window_test_support.h"
#include "broker/servicebus/servicebus_topic.h"
#include "models/entity_ref.h"
#include "views/main_window.h"

#include <QHash>
#include <QTabWidget>
#include <QTest>

#include <QAbstractItemView>
#include <QAbstractScrollArea>
#include <QApplication>
#include <QFont>
#include <QHeaderView>
#include <QLabel>
#include <QScopeGuard>
#include <QScrollArea>
#include <QScrollBar>
#include <QStringList>
#include <QTableView>
#include <QToolBar>

#include <algorithm>

namespace relaydesk::testing {

// The application font `scale` times its size until the returned guard goes.
inline auto applicationFontScaled(double scale)
{
    const QFont before = QApplication::font();
    QFont larger = before;
    larger.setPointSizeF(before.pointSizeF() * scale);
    QApplication::setFont(larger);
    return qScopeGuard([before] { QApplication::setFont(before); });
}

// Scroll areas under `top` (itself included) that show a horizontal
// scrollbar; with `tablesMayScroll`, tables and trees (whose columns stay
// whole and scroll inside their frame) are not counted.
inline QStringList sidewaysScrolling(QWidget &top, bool tablesMayScroll = false)
{
    QStringList found;
    QList<QAbstractScrollArea *> areas = top.findChildren<QAbstractScrollArea *>();
    if (auto *self = qobject_cast<QAbstractScrollArea *>(&top))
        areas << self;
    for (QAbstractScrollArea *area : areas) {
        if (!area->isVisible() || !area->horizontalScrollBar()->isVisible())
            continue;
        if (tablesMayScroll && qobject_cast<QAbstractItemView *>(area))
            continue;
        // The attempt log's ten columns, each whole, are wider than the page
        // beside a tree at its default width: it scrolls inside its frame.
        if (area->objectName() == QLatin1String("attemptTable"))
            continue;
        QString name = area->objectName();
        for (QWidget *up = area->parentWidget(); name.isEmpty() && up; up = up->parentWidget())
            name = up->objectName().isEmpty() ? QString() : QStringLiteral("in ") + up->objectName();
        // The innermost widgets that need more than the viewport: where to look.
        QStringList wide;
        if (auto *table = qobject_cast<QTableView *>(area)) {
            QStringList columns;
            for (int c = 0; c < table->horizontalHeader()->count(); ++c)
                columns << QString::number(table->columnWidth(c));
            wide << QStringLiteral("columns %1").arg(columns.join(QLatin1Char('+')));
        }
        if (auto *scroll = qobject_cast<QScrollArea *>(area); scroll && scroll->widget())
            for (QWidget *child : scroll->widget()->findChildren<QWidget *>())
                if (child->isVisible() && child->minimumSizeHint().width() > area->viewport()->width()
                    && std::none_of(child->children().cbegin(), child->children().cend(), [&](QObject *o) {
                           auto *w = qobject_cast<QWidget *>(o);
                           return w && w->isVisible() && w->minimumSizeHint().width() > area->viewport()->width();
                       }))
                    wide << QStringLiteral("%1 %2 (%3 px)").arg(QString::fromLatin1(child->metaObject()->className()), child->objectName())
                                .arg(child->minimumSizeHint().width());
        found << QStringLiteral("%1 (%2) scrolls sideways: %3 of %4 px%5")
                     .arg(name, QString::fromLatin1(area->metaObject()->className()))
                     .arg(area->horizontalScrollBar()->maximum() + area->viewport()->width())
                     .arg(area->viewport()->width())
                     .arg(wide.isEmpty() ? QString() : QStringLiteral("; wide: ") + wide.join(QStringLiteral(", ")));
    }
    return found;
}

// The broker time: found by its accessible name or object name, shown, inside `window`.
inline QString brokerTimeProblem(QWidget &window)
{
    QLabel *time = nullptr;
    for (QLabel *label : window.findChildren<QLabel *>())
        if (label->objectName() == QLatin1String("clockTime")
            || label->accessibleName().contains(QLatin1String("broker time"), Qt::CaseInsensitive))
            time = label;
    if (!time)
        return QStringLiteral("no broker time label");
    if (!time->isVisible())
        return QStringLiteral("the broker time is hidden");
    const QRect at(time->mapTo(&window, QPoint(0, 0)), time->size());
    if (!window.rect().contains(at))
        return QStringLiteral("the broker time lies outside the window");
    return {};
}

// Labels under `top` that show less than their text (not word-wrapped; cut by
// their own width or by the scroll area or pane around them).
inline QStringList cutLabels(QWidget &top)
{
    QStringList found;
    for (QLabel *label : top.findChildren<QLabel *>()) {
        if (!label->isVisible() || label->wordWrap() || label->text().isEmpty() || !label->pixmap().isNull())
            continue;
        // What shows of it: its width, clipped by the scroll areas and panes around it.
        const QRect shown = label->visibleRegion().boundingRect();
        if (shown.isEmpty())
            continue; // scrolled out of sight (up or down)
        const int width = std::min(label->width(), shown.width());
        if (width < label->minimumSizeHint().width())
            found << QStringLiteral("\"%1\" %2 of %3 px").arg(label->text()).arg(width).arg(label->minimumSizeHint().width());
    }
    return found;
}

// Cells of `table` whose text does not fit their column (elided), and header
// sections narrower than their title.
inline QStringList elidedCells(QTableView &table)
{
    QStringList found;
    const QAbstractItemModel *model = table.model();
    const QFontMetrics metrics = table.fontMetrics();
    const int margin = 2 * (table.style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, &table) + 1);
    for (int column = 0; column < model->columnCount(); ++column) {
        if (table.isColumnHidden(column))
            continue;
        const int width = table.columnWidth(column);
        const QString title = model->headerData(column, Qt::Horizontal).toString();
        const QFontMetrics headerMetrics = table.horizontalHeader()->fontMetrics();
        if (headerMetrics.horizontalAdvance(title) + margin > width)
            found << QStringLiteral("header \"%1\" in %2 px").arg(title).arg(width);
        for (int row = 0; row < model->rowCount(); ++row) {
            const QString text = model->index(row, column).data().toString();
            if (metrics.horizontalAdvance(text) + margin > width)
                found << QStringLiteral("\"%1\" in %2 px").arg(text).arg(width);
        }
    }
    return found;
}

// The sizes every page is looked at: 1280×800 and 800×600, and 1280×800 with a font half as large again.
struct WindowSize {
    const char *name;
    QSize size;
    double fontScale;
};
inline const WindowSize kSizes[] = {{"1280×800", {1280, 800}, 1.0}, {"800×600", {800, 600}, 1.0}, {"1280×800 font 1.5×", {1280, 800}, 1.5}};

// Layouts settle (posted layout requests, then what they resize).
inline void settle()
{
    for (int i = 0; i < 4; ++i) {
        QTest::qWait(0);
        QCoreApplication::processEvents();
    }
}

// Shows the tab titled `title` (without its mnemonic).
inline void showTab(QTabWidget &tabs, const QString &title)
{
    for (int i = 0; i < tabs.count(); ++i)
        if (tabs.tabText(i).remove(QLatin1Char('&')) == title)
            tabs.setCurrentIndex(i);
    settle();
}

// The entities of the page matrix in `window`'s broker: SQS queues (one with
// a dead-letter queue, a FIFO one, a message), a topic with sqs and http
// subscriptions (their ARNs into `arns` by row key), a Service Bus queue and a
// topic with a subscription, a Zaqar queue. False when one is refused.
inline bool fillPageMatrix(MainWindow &window, QHash<QString, QString> &arns)
{
    BrokerService &service = window.broker()->service();
    const BrokerIdentity &identity = window.broker()->identity();
    bool ok = callAndWait<std::string>([&](auto r) { service.createQueue("orders-dlq", {}, {}, nullptr, r); }).ok();
    ok = ok && callAndWait<std::string>([&](auto r) {
                   service.createQueue("orders", {{"RedrivePolicy", "{\"deadLetterTargetArn\":\"" + identity.queueArn("orders-dlq")
                                                                        + "\",\"maxReceiveCount\":\"3\"}"}},
                                       {}, nullptr, r);
               }).ok();
    ok = ok && callAndWait<std::string>([&](auto r) {
                   service.createQueue("jobs.fifo", {{"FifoQueue", "true"}, {"ContentBasedDeduplication", "true"}}, {},
                                       nullptr, r);
               }).ok();
    SendRequest send;
    send.body = "{\"order\": 1000, \"item\": \"book\"}";
    ok = ok && callAndWait<SendReceipt>([&](auto r) { service.sendMessage("orders", send, nullptr, r); }).ok();
    ok = ok && callAndWait<std::string>([&](auto r) { service.createTopic("events", {}, {}, nullptr, r); }).ok();
    const auto sqs = callAndWait<SubscribeReceipt>(
        [&](auto r) { service.subscribe("events", "sqs", identity.queueArn("orders"), {}, false, nullptr, r); });
    const std::string hook = (window.broker()->endpointUrl() + QStringLiteral("/_mock/audit")).toStdString();
    const auto http = callAndWait<SubscribeReceipt>([&](auto r) { service.subscribe("events", "http", hook, {}, false, nullptr, r); });
    ok = ok && sqs.ok() && http.ok();
    if (!ok)
        return false;
    arns[QStringLiteral("sub:sqs")] = QString::fromStdString(sqs->subscriptionArn);
    arns[QStringLiteral("sub:http")] = QString::fromStdString(http->subscriptionArn);
    ServiceBusQueueProperties billing;
    billing.name = "billing";
    ServiceBusTopic payments;
    payments.name = "payments";
    ServiceBusSubscription audit;
    audit.name = "audit";
    audit.properties.name = "payments/Subscriptions/audit";
    payments.subscriptions.push_back(audit);
    ok = callAndWait<bool>([&](auto r) { service.createServiceBusQueue(billing, nullptr, r); }).ok()
         && callAndWait<bool>([&](auto r) { service.createServiceBusTopic(payments, nullptr, r); }).ok();
    const QList<QPair<QByteArray, QByteArray>> client{{"Client-ID", "3381af92-2b9e-11e3-b191-71861300734c"}};
    ok = ok && sendJson("PUT", window.broker()->endpointUrl() + QStringLiteral("/v2/queues/demo"), "{}", client) == 201;
    return ok;
}

// The entities the matrix opens, by the key of its rows.
inline LocalEntity entityOf(const QString &key, const QHash<QString, QString> &arns)
{
    using Entity = EntityChange::Entity;
    if (key.startsWith(QLatin1String("topic:")))
        return {Entity::Topic, key.mid(6)};
    if (key.startsWith(QLatin1String("sbtopic:")))
        return {Entity::Topic, key.mid(8), true};
    if (key.startsWith(QLatin1String("sub:")))
        return {Entity::Subscription, arns.value(key)};
    return {Entity::Queue, key};
}

} // namespace relaydesk::testing
