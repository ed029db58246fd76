// SPDX-License-Identifier: MIT
// SNS and Zaqar pages on a par with the others (docs/window.md "Pages",
// "Zaqar queues"), against the real engine and HTTP port in the window:
// a topic's Subscriptions tab is a table (protocol, endpoint, status, filter
// policy, raw delivery) with Unsubscribe and Enter through to the
// subscription; a Zaqar queue has its own icon and an Overview of its
// /v2/queues URL, Client-ID, metadata with the reserved keys explained,
// claims in flight and subscriptions with their _retry_policy.
#include "window_test_support.h"
#include "parity_screenshots.h"

#include "models/entity_tree_model.h"
#include "views/entity_actions.h"
#include "views/entity_overview_tab.h"
#include "views/entity_page.h"
#include "views/main_window.h"
#include "views/topic_subscriptions_tab.h"

#include "support/test_main.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QLabel>
#include <QToolButton>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QAction>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

constexpr int kWait = 10000; // ms; a bound, not a pace: QTRY returns as soon as it holds
const QList<QPair<QByteArray, QByteArray>> kClient{{"Client-ID", "3381af92-2b9e-11e3-b191-71861300734c"}};

QString labelsText(QWidget *root)
{
    QStringList texts;
    for (QLabel *label : root->findChildren<QLabel *>())
        texts << label->text();
    return texts.join(QLatin1Char('\n'));
}

// The text of the Overview's value named `name` (its caption without the colon).
QString valueOf(QWidget *root, const QString &name)
{
    for (QLabel *label : root->findChildren<QLabel *>())
        if (label->accessibleName() == name)
            return label->text();
    return {};
}

} // namespace

class WindowParityTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QTemporaryDir m_settingsDir;
    int m_database = 0;

    bool start(MainWindow &window)
    {
        return window.startBroker(testBrokerOptions(m_dir.filePath(QStringLiteral("parity%1.db").arg(++m_database))));
    }

    template <class Tab>
    Tab *openTab(MainWindow &window, const LocalEntity &ref)
    {
        window.openEntity(ref);
        if (!QTest::qWaitFor([&] { return window.currentPage() && window.currentPage()->entity() == ref; }, kWait))
            return nullptr;
        return window.currentPage()->findChild<Tab *>();
    }

private slots:
    void initTestCase() { keepSettingsIn(m_settingsDir); }

    void topicSubscriptions_tableWithStatusFilterRaw_unsubscribe_enterOpens()
    {
        MainWindow window;
        QVERIFY(start(window));
        BrokerService &service = window.broker()->service();
        QVERIFY(callAndWait<std::string>([&](auto reply) { service.createTopic("orders", {}, {}, nullptr, reply); }));
        QVERIFY(callAndWait<std::string>([&](auto reply) { service.createQueue("audit", {}, {}, nullptr, reply); }));
        const AttributeMap sqsAttributes{{"FilterPolicy", "{\"kind\":[\"order\"]}"}, {"RawMessageDelivery", "true"}};
        const std::string auditArn = window.broker()->identity().queueArn("audit");
        auto sqs = callAndWait<SubscribeReceipt>(
            [&](auto reply) { service.subscribe("orders", "sqs", auditArn, sqsAttributes, false, nullptr, reply); });
        QVERIFY(sqs);
        auto http = callAndWait<SubscribeReceipt>([&](auto reply) {
            service.subscribe("orders", "http", "http://127.0.0.1:9/hook", {}, false, nullptr, reply);
        });
        QVERIFY(http);
        QTRY_VERIFY_WITH_TIMEOUT(window.entityModel()->overview().subscriptions.size() == 2, kWait);

        auto *tab = openTab<TopicSubscriptionsTab>(window, LocalEntity{EntityChange::Entity::Topic, QStringLiteral("orders")});
        QVERIFY2(tab, "the topic's Subscriptions tab is no table");
        QTableView *table = tab->table();
        QCOMPARE(table->model()->rowCount(), 2);
        const auto rowOf = [&](const QString &protocol) {
            for (int row = 0; row < table->model()->rowCount(); ++row)
                if (table->model()->index(row, TopicSubscriptionsTab::ProtocolColumn).data() == protocol)
                    return row;
            return -1;
        };
        const auto cell = [&](const QString &protocol, int column) {
            return table->model()->index(rowOf(protocol), column).data().toString();
        };
        QTRY_COMPARE_WITH_TIMEOUT(cell(QStringLiteral("sqs"), TopicSubscriptionsTab::FilterColumn),
                                  QStringLiteral("{\"kind\":[\"order\"]}"), kWait);
        QCOMPARE(cell(QStringLiteral("sqs"), TopicSubscriptionsTab::EndpointColumn), QString::fromStdString(auditArn));
        QCOMPARE(cell(QStringLiteral("sqs"), TopicSubscriptionsTab::StatusColumn), QStringLiteral("confirmed"));
        QCOMPARE(cell(QStringLiteral("sqs"), TopicSubscriptionsTab::RawColumn), QStringLiteral("raw"));
        QTRY_COMPARE_WITH_TIMEOUT(cell(QStringLiteral("http"), TopicSubscriptionsTab::RawColumn), QStringLiteral("envelope"),
                                  kWait);
        QCOMPARE(cell(QStringLiteral("http"), TopicSubscriptionsTab::StatusColumn), QStringLiteral("pending"));
        QCOMPARE(cell(QStringLiteral("http"), TopicSubscriptionsTab::FilterColumn), QStringLiteral("none"));
        QCOMPARE(table->accessibleName(), QStringLiteral("Subscriptions"));

        // Unsubscribe the http one: its row leaves.
        tab->unsubscribe(tab->arnAt(rowOf(QStringLiteral("http"))));
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 1, kWait);

        // Enter on the sqs row opens the subscription's page.
        const QString arn = QString::fromStdString(sqs->subscriptionArn);
        table->setFocus();
        table->setCurrentIndex(table->model()->index(0, 0));
        QTest::keyClick(table, Qt::Key_Return);
        const LocalEntity subscription{EntityChange::Entity::Subscription, arn};
        QTRY_VERIFY_WITH_TIMEOUT(window.currentPage() && window.currentPage()->entity() == subscription, kWait);
        window.show();
        QVERIFY(openTab<TopicSubscriptionsTab>(window, LocalEntity{EntityChange::Entity::Topic, QStringLiteral("orders")}));
        window.currentPage()->tabs()->setCurrentWidget(window.currentPage()->findChild<TopicSubscriptionsTab *>());
        shootSizesAndThemes(window, QStringLiteral("parity-topic-subscriptions"));
    }

    void zaqarQueue_ownIcon_overviewOfUrlMetadataClaimsSubscriptions()
    {
        MainWindow window;
        QVERIFY(start(window));
        const QString base = window.broker()->endpointUrl() + QStringLiteral("/v2/queues/jobs");
        QCOMPARE(sendJson("PUT", base, "{\"_default_message_ttl\": 300, \"_max_claim_count\": 3, \"color\": \"blue\"}",
                          kClient),
                 201);
        const QByteArray policy = "{\"retries_with_no_delay\": 3, \"minimum_delay_retries\": 3, \"minimum_delay\": 5, "
                                  "\"maximum_delay\": 30, \"maximum_delay_retries\": 3, \"retry_backoff_function\": "
                                  "\"linear\", \"ignore_subscription_override\": false}";
        QCOMPARE(sendJson("POST", base + QStringLiteral("/subscriptions"),
                          "{\"subscriber\": \"http://127.0.0.1:9/hook\", \"ttl\": 3600, \"options\": {\"_retry_policy\": " +
                              policy + "}}",
                          kClient),
                 201);
        QCOMPARE(sendJson("POST", base + QStringLiteral("/messages"), "{\"messages\": [{\"body\": 1, \"ttl\": 300}]}",
                          kClient),
                 201);
        QCOMPARE(sendJson("POST", base + QStringLiteral("/claims"), "{\"ttl\": 60, \"grace\": 60}", kClient), 201);

        const LocalEntity jobs{EntityChange::Entity::Queue, QStringLiteral("jobs")};
        EntityTreeModel *model = window.entityModel();
        QTRY_VERIFY_WITH_TIMEOUT(model->indexOf(jobs).isValid(), kWait);
        const QImage icon = model->indexOf(jobs).data(Qt::DecorationRole).value<QIcon>().pixmap(16).toImage();
        QCOMPARE(icon, entityIcon("queue-zaqar").pixmap(16).toImage());
        QVERIFY(icon != entityIcon("queue").pixmap(16).toImage());

        auto *overview = openTab<EntityOverviewTab>(window, jobs);
        QVERIFY(overview);
        QTRY_VERIFY_WITH_TIMEOUT(labelsText(overview).contains(QStringLiteral("Claims in flight")), kWait);
        const QString text = labelsText(overview);
        for (const QString &expected :
             {base, QStringLiteral("Client-ID: 3381af92-"), QStringLiteral("_default_message_ttl = 300 — "),
              QStringLiteral("_max_claim_count = 3 — claims a message takes"),
              QStringLiteral("_dead_letter_queue = not set (none)"), QStringLiteral("color = blue"),
              QStringLiteral("http://127.0.0.1:9/hook · ttl 3"), QStringLiteral("_retry_policy {"),
              QStringLiteral("retries_with_no_delay: 3")})
            QVERIFY2(text.contains(expected), qPrintable(expected + QStringLiteral(" not in:\n") + text));
        QVERIFY2(!text.contains(QStringLiteral("arn:")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("/000000000000/")), qPrintable(text));   // no SQS URL
        QCOMPARE(valueOf(overview, QStringLiteral("Claims in flight")), QStringLiteral("1"));
        // The header copies the Zaqar URL and offers no ARN.
        window.entityActions()->copyUrl()->trigger();
        QCOMPARE(QGuiApplication::clipboard()->text(), base);
        for (QToolButton *button : window.currentPage()->findChildren<QToolButton *>())
            QVERIFY(button->defaultAction() != window.entityActions()->copyArn());
        window.show();
        shootSizesAndThemes(window, QStringLiteral("parity-zaqar-overview"));
    }
};

RELAYDESK_TEST_MAIN(WindowParityTest)
#include "window_parity_test.moc"
