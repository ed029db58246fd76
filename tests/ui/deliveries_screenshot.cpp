// SPDX-License-Identifier: MIT
// deliveries_screenshot OUTDIR [WIDTHxHEIGHT]: the Deliveries scenario, played
// in the real window on the display it is given (xvfb-run, see
// editor_screenshot.sh): the sns-example preset on a topic's Policy tab,
// "Try a policy" against a mock that fails 20 times (so attempts go through
// all four phases), the clock at 600× (a 37-minute policy in seconds), then
// grabs of the Deliveries tab while the attempts march and when they are done,
// the message's timeline, the delay axis, and a topic with more messages than
// the chart draws one by one (aggregated). Writes OUTDIR/deliveries-*.png for
// a person to look at; exits 1 when a step never happens or a grab is blank.
// Waits only for what it asks for (the attempts logged), never for a time.
#include "widgets/english_plurals.h"
#include "support/call_and_wait.h"
#include "screenshot_support.h"

#include "charts/attempt_chart.h"
#include "dialogs/try_policy_dialog.h"
#include "engine/broker_engine.h"
#include "engine/broker_service.h"
#include "models/attempt_log_model.h"
#include "models/entity_tree_model.h"
#include "host/broker_host.h"
#include "mock/mock_endpoints.h"
#include "mock/policy_trial.h"
#include "views/clock_toolbar.h"
#include "views/deliveries_page.h"
#include "views/delivery_policy_page.h"
#include "views/entity_page.h"
#include "views/entity_tree_panel.h"
#include "views/main_window.h"
#include "views/message_timeline_panel.h"
#include "policy_editor/policy_editor.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

#include <cstdio>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

constexpr int kWait = 60000; // ms: a bound for each step, not a pace

bool fail(const char *what)
{
    std::fprintf(stderr, "deliveries_screenshot: %s\n", what);
    return false;
}

DeliveriesPage *deliveriesTab(MainWindow &window)
{
    if (!window.currentPage())
        return nullptr;
    return qobject_cast<DeliveriesPage *>(window.currentPage()->tabs()->currentWidget());
}

bool run(MainWindow &window, const ScreenshotRun &shots)
{
    BrokerHost &host = *window.broker();
    BrokerService &service = host.service();
    auto publish = [&](const std::string &topic, const std::string &body) {
        PublishRequest request;
        request.message = body;
        return callAndWait<PublishReceipt>([&](auto r) { service.publish(topic, request, nullptr, r); }).ok();
    };
    if (!callAndWait<std::string>([&](auto r) { service.createTopic("orders", {}, {}, nullptr, r); }).ok())
        return fail("cannot create the topic");
    if (!QTest::qWaitFor([&] { return window.entityPanel()->selectEntity({EntityChange::Entity::Topic, QStringLiteral("orders")}); },
                         kWait))
        return fail("the topic never showed in the tree");
    auto *policy = window.currentPage()->findChild<DeliveryPolicyPage *>();
    if (!policy)
        return fail("no Policy tab");
    window.currentPage()->tabs()->setCurrentWidget(policy);
    policy->editor()->applyPreset(QStringLiteral("sns-example"));
    policy->tryButton()->click();
    auto *dialog = window.findChild<TryPolicyDialog *>();
    if (!dialog)
        return fail("no Try a Policy dialog");
    dialog->scriptEdit()->setText(QStringLiteral("503 x 20, then 200"));
    (void)QTest::qWaitForWindowExposed(dialog);
    bool ok = shootWindow(*dialog, shots.out.filePath(QStringLiteral("deliveries-try-policy-dialog.png")));

    // 600×: the broker clock runs ten minutes a second.
    auto *factor = window.clockToolbar()->findChild<QComboBox *>(QStringLiteral("warpFactor"));
    factor->setCurrentIndex(factor->count() - 1);
    window.clockToolbar()->warpAction()->trigger();
    dialog->tryButton()->click();
    if (!QTest::qWaitFor([&] { return deliveriesTab(window) != nullptr; }, kWait))
        return fail("Try a policy never opened the Deliveries tab");
    DeliveriesPage *page = deliveriesTab(window);
    // The mock's script is per endpoint, so one message meets all 20 failures.
    if (!QTest::qWaitFor([&] { return page->model()->rowCount() >= 8; }, kWait))
        return fail("the attempts never came");
    page->chart()->redraw(); // what the next repaint (within 250 ms) shows
    ok = shootWindow(window, shots.out.filePath(QStringLiteral("deliveries-marching.png"))) && ok;
    // Delivered at its 21st attempt, in postBackoff.
    if (!QTest::qWaitFor([&] { return page->model()->rowCount() > 0 && page->model()->recordAt(0)->final; }, kWait))
        return fail("the delivery never ended");
    // Paused, as a person would to look at what happened (the chart follows the clock).
    window.clockToolbar()->pauseAction()->trigger();
    page->chart()->redraw();
    ok = shootWindow(window, shots.out.filePath(QStringLiteral("deliveries-done.png"))) && ok;

    page->tableView()->setCurrentIndex(page->model()->index(0, 0));
    if (!QTest::qWaitFor([&] { return page->timelinePanel()->timeline().has_value(); }, kWait))
        return fail("the timeline never came");
    page->tableView()->setFocus();
    ok = shootWindow(window, shots.out.filePath(QStringLiteral("deliveries-timeline.png"))) && ok;
    page->chart()->setYAxis(AttemptChart::YAxis::Delay);
    ok = shootWindow(window, shots.out.filePath(QStringLiteral("deliveries-delay-axis.png"))) && ok;

    // Many messages at once on one subscription: the chart counts per phase per bucket.
    if (!host.mocks().set("down", "503 always").ok())
        return fail("cannot set the mock");
    const std::string url = host.endpointUrl().toStdString() + MockEndpoints::pathOf("down");
    auto bulk = callAndWait<SubscribeReceipt>([&](auto r) {
        service.subscribe(policy_trial::kTopicName, "http", url,
                          {{"DeliveryPolicy", R"({"healthyRetryPolicy": {"numRetries": 8, "numNoDelayRetries": 2,
                              "numMinDelayRetries": 2, "numMaxDelayRetries": 2, "minDelayTarget": 5,
                              "maxDelayTarget": 30, "backoffFunction": "exponential"}})"}},
                          true, nullptr, r);
    });
    if (!bulk.ok())
        return fail("cannot subscribe the failing mock");
    window.entityPanel()->selectEntity({EntityChange::Entity::Topic, QLatin1String(policy_trial::kTopicName)});
    if (!window.currentPage())
        return fail("no topic page");
    QTabWidget *tabs = window.currentPage()->tabs();
    for (int i = 0; i < tabs->count(); ++i)
        if (tabs->widget(i)->objectName() == QLatin1String("deliveriesPage"))
            tabs->setCurrentIndex(i);
    page = deliveriesTab(window);
    if (!page)
        return fail("no Deliveries tab on the topic");
    window.clockToolbar()->pauseAction()->trigger(); // 600× again
    for (int i = 0; i < 40; ++i)
        if (!publish(policy_trial::kTopicName, "{\"batch\": " + std::to_string(i) + "}"))
            return fail("cannot publish the batch");
    // 21 attempts of the trial; the batch: 40 delivered at once to the trial's mock (its 200s now),
    // 40 × 9 failed attempts to the failing one.
    if (!QTest::qWaitFor([&] { return page->model()->total() >= 21 + 40 + 40 * 9; }, kWait))
        return fail("the batch's attempts never came");
    window.clockToolbar()->pauseAction()->trigger();
    page->chart()->redraw();
    ok = shootWindow(window, shots.out.filePath(QStringLiteral("deliveries-aggregated.png"))) && ok;
    if (!page->chart()->isAggregated())
        return fail("the chart did not aggregate 43 messages");
    return ok;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    relaydesk::installEnglishPlurals(); // as the window's main does: "1 error", not "1 error(s)"
    QApplication::setOrganizationName(QStringLiteral("Relaydesk"));
    QApplication::setApplicationName(QStringLiteral("Relaydesk"));
    const ScreenshotRun shots(app.arguments());
    MainWindow window;
    if (!shots.show(window)) {
        std::fprintf(stderr, "deliveries_screenshot: the window was never exposed\n");
        return 1;
    }
    const QTemporaryDir dir;
    const ServeOptions options = screenshotBrokerOptions(dir);
    if (!window.startBroker(options)) {
        std::fprintf(stderr, "deliveries_screenshot: the broker did not start\n");
        return 1;
    }
    return run(window, shots) ? 0 : 1;
}
