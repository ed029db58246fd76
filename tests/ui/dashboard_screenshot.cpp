// SPDX-License-Identifier: MIT
// dashboard_screenshot OUTDIR [WIDTHxHEIGHT]: the window's dashboard and its
// Mock Endpoints window with a broker of their own (a database in a temporary
// folder, virtual clock, any free port) on the display it is given
// (xvfb-run, see editor_screenshot.sh), after twenty minutes of clock time of
// traffic — sends, receives, deletes, publishes fanned out to a queue and to
// mock endpoints that fail and recover, a poison message dead-lettered — as
// OUTDIR/dashboard-*.png and OUTDIR/mock-endpoints-*.png, in the light and
// the dark palette, for a person to look at. Exits 1 when a grab fails or
// comes out blank. Never touches the user's settings.
#include "widgets/english_plurals.h"
#include "screenshot_support.h"
#include "window_test_support.h"

#include "engine/broker_engine.h"
#include "engine/broker_service.h"
#include "models/entity_tree_model.h"
#include "host/broker_host.h"
#include "mock/mock_endpoints.h"
#include "views/dashboard_page.h"
#include "views/main_window.h"
#include "views/mock_endpoints_window.h"
#include "widgets/appearance.h"

#include <QAction>
#include <QApplication>
#include <QLineEdit>
#include <QPalette>
#include <QPushButton>
#include <QSignalSpy>
#include <QStyleFactory>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>

using namespace relaydesk;
using namespace relaydesk::testing;
using namespace std::chrono_literals;

namespace {

struct Traffic {
    BrokerHost &host;
    BrokerService &service = host.service();

    bool queue(const std::string &name, AttributeMap attributes = {})
    {
        return callAndWait<std::string>([&](auto r) { service.createQueue(name, attributes, {}, nullptr, r); }).ok();
    }
    bool topic(const std::string &name)
    {
        return callAndWait<std::string>([&](auto r) { service.createTopic(name, {}, {}, nullptr, r); }).ok();
    }
    bool subscribe(const std::string &topic, const std::string &protocol, const std::string &endpoint)
    {
        return callAndWait<SubscribeReceipt>([&](auto r) {
                   service.subscribe(topic, protocol, endpoint, {}, true, nullptr, r);
               }).ok();
    }
    bool send(const std::string &queue, const std::string &body)
    {
        SendRequest request;
        request.body = body;
        return callAndWait<SendReceipt>([&](auto r) { service.sendMessage(queue, request, nullptr, r); }).ok();
    }
    bool publish(const std::string &topic, const std::string &message)
    {
        PublishRequest request;
        request.message = message;
        return callAndWait<PublishReceipt>([&](auto r) { service.publish(topic, request, nullptr, r); }).ok();
    }
    // Receives up to `count` from `queue` (visibility `visibility` s) and deletes `remove` of them.
    bool receive(const std::string &queue, int count, int remove, int visibility = 30)
    {
        ReceiveRequest request;
        request.maxNumberOfMessages = count;
        request.visibilityTimeout = visibility;
        auto received = callAndWait<ReceiveResult>([&](auto r) { service.receiveMessage(queue, request, nullptr, r); });
        if (!received)
            return false;
        for (int i = 0; i < remove && std::size_t(i) < received->messages.size(); ++i) {
            const std::string handle = received->messages[std::size_t(i)].receiptHandle;
            if (!callAndWaitStatus([&](auto r) { service.deleteMessage(queue, handle, nullptr, r); }).ok())
                return false;
        }
        return true;
    }
    // A minute of clock time, advanced without blocking this thread: it
    // serves the mock endpoints, and an advance waits for the requests it
    // makes due.
    bool minutePasses()
    {
        std::optional<bool> advanced;
        QObject context;
        host.engine().advanceClock(1min, &context, [&advanced](Result<ClockTime> result) { advanced = result.ok(); });
        (void)QTest::qWaitFor([&] { return advanced.has_value(); }, 20000);
        return advanced.value_or(false);
    }
};

bool play(BrokerHost &host)
{
    Traffic t{host};
    const std::string mocks = host.endpointUrl().toStdString();
    const BrokerIdentity &identity = host.identity();
    bool ok = t.queue("orders-dlq") &&
              t.queue("orders", {{"RedrivePolicy", "{\"deadLetterTargetArn\":\"" + identity.queueArn("orders-dlq") +
                                                       "\",\"maxReceiveCount\":\"1\"}"}}) &&
              t.queue("jobs") && t.queue("billing") && t.queue("audit-log") && t.topic("events") && t.topic("alerts");
    ok = ok && host.mocks().set("audit", "200").ok() && host.mocks().set("flaky", "503 x 6, then 200").ok() &&
         host.mocks().set("gone", "404").ok();
    ok = ok && t.subscribe("events", "sqs", identity.queueArn("orders")) &&
         t.subscribe("events", "http", mocks + "/_mock/audit") && t.subscribe("events", "http", mocks + "/_mock/flaky") &&
         t.subscribe("alerts", "http", mocks + "/_mock/gone") && t.subscribe("alerts", "sqs", identity.queueArn("audit-log"));
    for (int minute = 0; minute < 20 && ok; ++minute) {
        const int wave = 3 + (minute * 7) % 11; // an uneven load, so the lines say something
        for (int i = 0; i < wave && ok; ++i)
            ok = t.send("jobs", "{\"job\": " + std::to_string(minute * 100 + i) + "}");
        for (int i = 0; i < wave / 2 && ok; ++i)
            ok = t.publish("events", "{\"event\": \"order.created\", \"order\": " + std::to_string(minute * 10 + i) + "}");
        if (minute % 4 == 0)
            ok = ok && t.publish("alerts", "{\"alert\": \"disk\"}");
        ok = ok && t.send("billing", "invoice " + std::to_string(minute));
        ok = ok && t.receive("jobs", std::min(10, wave), std::min(10, wave) - 1);
        if (minute >= 10)
            ok = ok && t.receive("orders", 4, 3);
        if (minute == 12) // a poison message: received once, back after 0 s, then dead-lettered
            ok = ok && t.send("orders", "{\"poison\": true}") && t.receive("orders", 10, 0, 0) && t.receive("orders", 10, 0, 0);
        ok = ok && t.minutePasses();
    }
    return ok;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    relaydesk::installEnglishPlurals(); // as the window's main does: "1 error", not "1 error(s)"
    QApplication::setOrganizationName(QStringLiteral("Relaydesk"));
    QApplication::setApplicationName(QStringLiteral("Relaydesk"));
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion"))); // the same look in both palettes
    const ScreenshotRun run(app.arguments());
    MainWindow window;
    if (!run.show(window)) {
        std::fprintf(stderr, "dashboard_screenshot: the window was never exposed\n");
        return 1;
    }
    const QTemporaryDir dir;
    if (!window.startBroker(testBrokerOptions(dir.filePath(QStringLiteral("relaydesk.db")))) || !play(*window.broker())) {
        std::fprintf(stderr, "dashboard_screenshot: the broker did not start or refused the example traffic\n");
        return 1;
    }
    auto *dashboard = window.findChild<DashboardPage *>();
    if (!dashboard) {
        std::fprintf(stderr, "dashboard_screenshot: no dashboard page\n");
        return 1;
    }
    const auto settle = [&] {
        QSignalSpy refreshed(window.entityModel(), &EntityTreeModel::refreshed);
        window.entityModel()->refresh();
        refreshed.wait(5000);
        for (int i = 0; i < 6; ++i) { // depths re-read, then shown (the page's own timer)
            dashboard->tick();
            QTest::qWait(DashboardPage::kRepaintIntervalMs);
        }
    };
    bool ok = true;
    const auto shoot = [&](QWidget &widget, const QString &name) {
        ok = shootWindow(widget, run.out.filePath(name + QStringLiteral(".png"))) && ok;
    };
    dashboard->setRateWindow(1);
    settle();
    shoot(window, QStringLiteral("dashboard"));

    window.findChild<QAction *>(QStringLiteral("mockEndpointsAction"))->trigger();
    auto *mocks = window.findChild<MockEndpointsWindow *>();
    if (!mocks || !QTest::qWaitForWindowExposed(mocks)) {
        std::fprintf(stderr, "dashboard_screenshot: no Mock Endpoints window\n");
        return 1;
    }
    mocks->resize(1100, 760);
    mocks->selectEndpoint(QStringLiteral("flaky"));
    auto *requests = mocks->findChild<QTableView *>(QStringLiteral("mockRequestTable"));
    auto *script = mocks->findChild<QLineEdit *>(QStringLiteral("mockScript"));
    auto *save = mocks->findChild<QPushButton *>(QStringLiteral("saveMock"));
    if (!requests || !script || !save || requests->model()->rowCount() == 0) {
        std::fprintf(stderr, "dashboard_screenshot: the Mock Endpoints window lacks its requests, script or Save\n");
        return 1;
    }
    requests->selectRow(requests->model()->rowCount() - 1);
    shoot(*mocks, QStringLiteral("mock-endpoints"));
    script->setText(QStringLiteral("503 x , then 200"));
    save->click();
    shoot(*mocks, QStringLiteral("mock-endpoints-error"));
    script->setText(QStringLiteral("503 x 6, then 200"));
    save->click();

    mocks->hide(); // a screen grab of the window would show it on top
    applyTheme(Theme::Dark); // the window's own dark theme (Edit ▸ Preferences…)
    settle();
    shoot(window, QStringLiteral("dashboard-dark"));
    mocks->show();
    (void)QTest::qWaitForWindowExposed(mocks);
    mocks->selectEndpoint(QStringLiteral("audit"));
    requests->selectRow(0);
    shoot(*mocks, QStringLiteral("mock-endpoints-dark"));
    return ok ? 0 : 1;
}
