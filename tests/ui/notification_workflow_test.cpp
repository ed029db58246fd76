// SPDX-License-Identifier: MIT
// The notification workflow in the window, offscreen, on the window's own
// broker (real database file, real HTTP on loopback, virtual clock):
// subscribe a mock http endpoint to a topic through the real Subscribe
// dialog, publish through the real Publish dialog, step the virtual clock —
// the mock received the notification, and the subscription's page in the
// window says it is confirmed and delivered.
#include "window_test_support.h"

#include "dialogs/create_subscription_dialog.h"
#include "dialogs/publish_dialog.h"
#include "models/entity_tree_model.h"
#include "mock/mock_endpoints.h"
#include "views/clock_toolbar.h"
#include "views/entity_actions.h"
#include "views/entity_page.h"
#include "views/entity_tree_panel.h"
#include "views/main_window.h"
#include "support/test_main.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

constexpr int kWait = 10000; // ms; a bound, not a pace: QTRY returns as soon as it holds

// The subscription of `topic` in the tree's overview, if there is one.
const SubscriptionOverview *subscriptionOf(MainWindow &window, const std::string &topic)
{
    for (const SubscriptionOverview &subscription : window.entityModel()->overview().subscriptions)
        if (subscription.topicName == topic)
            return &subscription;
    return nullptr;
}

// The notifications the mock endpoint received (their bodies).
QStringList notificationsAt(BrokerHost &host, const std::string &mock)
{
    QStringList bodies;
    auto received = host.mocks().received(mock);
    if (received.ok())
        for (const MockRequest &request : *received)
            bodies << QString::fromStdString(request.body);
    return bodies;
}

// The value shown next to the overview row `label` of the window's current page.
QString overviewValue(MainWindow &window, const QString &label)
{
    if (!window.currentPage())
        return {};
    for (QLabel *value : window.currentPage()->findChildren<QLabel *>())
        if (value->accessibleName() == label && value->isVisibleTo(window.currentPage()))
            return value->text();
    return {};
}

} // namespace

class NotificationWorkflowTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QTemporaryDir m_settingsDir;
    std::unique_ptr<MainWindow> m_window;

private slots:
    void initTestCase() { keepSettingsIn(m_settingsDir); }

    void cleanup() { m_window.reset(); }

    void subscribeMock_publish_stepClock_deliveredAndShown()
    {
        m_window = std::make_unique<MainWindow>();
        QVERIFY(m_window->startBroker(testBrokerOptions(m_dir.filePath(QStringLiteral("notify.db")))));
        BrokerHost &host = *m_window->broker();
        QCOMPARE(postNative(host.endpointUrl(), QStringLiteral("/api/v1/topics"), R"({"name":"events"})"), 201);
        const LocalEntity topic{EntityChange::Entity::Topic, QStringLiteral("events")};
        QTRY_VERIFY_WITH_TIMEOUT(m_window->entityModel()->indexOf(topic).isValid(), kWait);

        // Subscribe: the real dialog, from the topic's action, to a new mock endpoint that answers 200.
        QVERIFY(m_window->entityPanel()->selectEntity(topic));
        QVERIFY(m_window->entityActions()->subscribe()->isEnabled());
        m_window->entityActions()->subscribe()->trigger();
        QPointer<CreateSubscriptionDialog> subscribe = m_window->findChild<CreateSubscriptionDialog *>();
        QVERIFY(subscribe);
        QVERIFY(subscribe->isVisible());
        subscribe->protocolSelector()->setCurrentText(QStringLiteral("http"));
        QVERIFY(subscribe->useMock()->isChecked());
        subscribe->mockName()->setEditText(QStringLiteral("hook"));
        subscribe->mockScript()->setText(QStringLiteral("200"));
        QCOMPARE(subscribe->url()->text(), host.endpointUrl() + QStringLiteral("/_mock/hook"));
        QTest::mouseClick(subscribe->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(subscribe.isNull() || !subscribe->isVisible(), kWait);
        // In the tree under the topic, confirmed (a mock cannot confirm, so the window confirms it).
        QTRY_VERIFY_WITH_TIMEOUT(subscriptionOf(*m_window, "events") != nullptr, kWait);
        const SubscriptionOverview subscribed = *subscriptionOf(*m_window, "events");
        QCOMPARE(subscribed.protocol, std::string("http"));
        QVERIFY(!subscribed.pending);
        const LocalEntity subscription{EntityChange::Entity::Subscription, QString::fromStdString(subscribed.arn)};
        QVERIFY(m_window->entityModel()->indexOf(subscription).isValid());

        // Publish: the real dialog, from the topic's action.
        QVERIFY(m_window->entityPanel()->selectEntity(topic));
        m_window->entityActions()->publish()->trigger();
        QPointer<PublishDialog> publish = m_window->findChild<PublishDialog *>();
        QVERIFY(publish);
        publish->findChild<QPlainTextEdit *>(QStringLiteral("message"))->setPlainText(QStringLiteral("order 42 shipped"));
        publish->findChild<QLineEdit *>(QStringLiteral("subject"))->setText(QStringLiteral("Shipping"));
        QTest::mouseClick(publish->findChild<QPushButton *>(QStringLiteral("publish")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(publish.isNull() || !publish->isVisible(), kWait);

        // Step the virtual clock: the delivery worker delivers to the mock over HTTP.
        ClockToolbar *clock = m_window->clockToolbar();
        QVERIFY(clock->virtualAction()->isChecked());
        clock->stepSecondAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(notificationsAt(host, "hook").filter(QStringLiteral("order 42 shipped")).size() == 1,
                                 kWait);
        const QString notification = notificationsAt(host, "hook").filter(QStringLiteral("order 42 shipped")).first();
        QVERIFY(notification.contains(QStringLiteral("\"Type\" : \"Notification\""))
                || notification.contains(QStringLiteral("\"Type\":\"Notification\"")));
        QVERIFY(notification.contains(QStringLiteral("Shipping")));

        // The subscription's page says so: confirmed, one delivered, none pending, the last answer.
        QVERIFY(m_window->entityPanel()->selectEntity(subscription));
        QTRY_COMPARE_WITH_TIMEOUT(overviewValue(*m_window, QStringLiteral("Status")), QStringLiteral("confirmed"), kWait);
        QTRY_COMPARE_WITH_TIMEOUT(overviewValue(*m_window, QStringLiteral("Deliveries")),
                                  QStringLiteral("1 delivered · 0 pending · last attempt: delivered (HTTP 200)"), kWait);
    }
};

RELAYDESK_TEST_MAIN(NotificationWorkflowTest)
#include "notification_workflow_test.moc"
