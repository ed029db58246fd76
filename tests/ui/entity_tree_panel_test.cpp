// SPDX-License-Identifier: MIT
// Names come first in the entity tree (docs/window.md "The parts of the
// window"): the Name column holds the widest queue name beside the count
// columns — with 100 000 messages and after the header is restored, too —
// rows without counts (groups, topics, subscriptions) span the whole width,
// and a count column empty on every row gives its room away.
#include "models/entity_tree_model.h"
#include "views/entity_tree_panel.h"
#include "support/test_main.h"

#include <QHeaderView>
#include <QTest>
#include <QTreeView>

using namespace relaydesk;

namespace {

EntityOverview overviewWith(std::int64_t available, std::int64_t deadLettered)
{
    EntityOverview overview;
    overview.topics.push_back({"http-notifications", false, {}});
    SubscriptionOverview subscription;
    subscription.arn = "arn:aws:sns:us-east-1:000000000000:http-notifications:1";
    subscription.topicName = "http-notifications";
    subscription.protocol = "http";
    subscription.endpoint = "http://127.0.0.1:4566/_mock/a-rather-long-endpoint";
    overview.subscriptions.push_back(subscription);
    QueueOverview dlq;
    dlq.name = "customer-orders-dead-letters";
    dlq.isDeadLetterQueue = true;
    dlq.counts.deadLettered = deadLettered;
    dlq.counts.available = deadLettered;
    QueueOverview orders;
    orders.name = "customer-orders";
    orders.deadLetterQueue = dlq.name;
    orders.counts.available = available;
    overview.queues = {orders, dlq};
    return overview;
}

// The pixels the name of `row` needs in `tree`: text, indentation, icon, margins.
int nameNeeds(const QTreeView &tree, const QString &name, int depth)
{
    return tree.fontMetrics().horizontalAdvance(name) + (depth + 1) * tree.indentation() + tree.iconSize().width();
}

} // namespace

class EntityTreePanelTest final : public QObject {
    Q_OBJECT

private:
    // The panel at its narrowest (the dock dragged all the way in).
    static void showNarrowest(EntityTreePanel &panel)
    {
        panel.show();
        QCoreApplication::processEvents();
        panel.resize(panel.minimumWidth(), 400);
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
    }

    static void verifyNamesWhole(EntityTreePanel &panel)
    {
        QTreeView *tree = panel.treeView();
        const int name = tree->header()->sectionSize(EntityTreeModel::NameColumn);
        const int needs = nameNeeds(*tree, QStringLiteral("customer-orders-dead-letters"), 1);
        QVERIFY2(name >= needs, qPrintable(QStringLiteral("Name %1 px, the queue's name needs %2").arg(name).arg(needs)));
    }

private slots:
    void namesComeFirst_withLargeCountsAndAfterRestore()
    {
        EntityTreeModel model(nullptr, BrokerIdentity{});
        model.apply(overviewWith(7, 3));
        QByteArray saved;
        {
            EntityTreePanel panel;
            panel.setModel(&model);
            showNarrowest(panel);
            verifyNamesWhole(panel);
            // 100 000 messages widen the count column; the name keeps its room.
            model.apply(overviewWith(100'000, 100'000));
            showNarrowest(panel);
            verifyNamesWhole(panel);
            saved = panel.saveHeaderState();
        }
        EntityTreePanel reopened;
        reopened.restoreHeaderState(saved);
        reopened.setModel(&model);
        showNarrowest(reopened);
        verifyNamesWhole(reopened);
    }

    void rowsWithoutCounts_spanTheWidth_emptyColumnsGiveWay()
    {
        EntityTreeModel model(nullptr, BrokerIdentity{});
        model.apply(overviewWith(7, 3));
        EntityTreePanel panel;
        panel.setModel(&model);
        showNarrowest(panel);
        QTreeView *tree = panel.treeView();
        // Group rows, the topic and its subscription span; queue rows do not.
        const QModelIndex local = tree->model()->index(0, 0);   // This computer
        const QModelIndex topics = tree->model()->index(0, 0, local);
        const QModelIndex topic = tree->model()->index(0, 0, topics);
        QVERIFY(tree->isFirstColumnSpanned(0, local));
        QVERIFY(tree->isFirstColumnSpanned(0, topics));
        QVERIFY(tree->isFirstColumnSpanned(0, topic));
        const QModelIndex queues = tree->model()->index(1, 0, local);
        QVERIFY(!tree->isFirstColumnSpanned(0, queues));
        // In flight, delayed and scheduled are empty everywhere: hidden; Avail and DLQ shown.
        QHeaderView *header = tree->header();
        QVERIFY(!header->isSectionHidden(EntityTreeModel::AvailableColumn));
        QVERIFY(!header->isSectionHidden(EntityTreeModel::DeadLetteredColumn));
        for (int column : {EntityTreeModel::InFlightColumn, EntityTreeModel::DelayedColumn, EntityTreeModel::ScheduledColumn})
            QVERIFY2(header->isSectionHidden(column), qPrintable(QString::number(column)));
        // A message in flight brings its column back.
        EntityOverview busy = overviewWith(7, 3);
        busy.queues[0].counts.inFlight = 2;
        model.apply(busy);
        QCoreApplication::processEvents();
        QVERIFY(!header->isSectionHidden(EntityTreeModel::InFlightColumn));
    }
};

RELAYDESK_TEST_MAIN(EntityTreePanelTest)
#include "entity_tree_panel_test.moc"
