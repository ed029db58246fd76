// SPDX-License-Identifier: MIT
// window_screenshot OUTDIR [WIDTHxHEIGHT]: the real window with its own broker
// (a database in a temporary folder, virtual clock, any free port) on the
// display it is given (xvfb-run, see editor_screenshot.sh), filled the way a
// new user would (a topic with an sqs and a mock http subscription, queues
// with a dead-letter queue, messages in several states), and a grab of each
// page as OUTDIR/window-<page>.png for a person to look at. Exits 1 when a
// page, tab or dialog it shows is missing, or a grab fails or comes out
// blank. Never touches the user's settings.
#include "widgets/english_plurals.h"
#include "support/call_and_wait.h"
#include "screenshot_support.h"

#include "dialogs/database_problem_dialog.h"
#include "engine/broker_engine.h"
#include "engine/broker_service.h"
#include "models/entity_tree_model.h"
#include "models/message_browse_model.h"
#include "host/broker_host.h"
#include "mock/mock_endpoints.h"
#include "store/database.h"
#include "views/entity_actions.h"
#include "views/entity_page.h"
#include "views/entity_tree_panel.h"
#include "views/main_window.h"
#include "views/queue_message_actions.h"
#include "views/queue_messages_page.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QLineEdit>
#include <QDir>
#include <QItemSelectionModel>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <functional>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

bool fill(BrokerHost &host)
{
    BrokerService &service = host.service();
    const BrokerIdentity &identity = host.identity();
    auto queue = [&](const std::string &name, AttributeMap attributes) {
        return callAndWait<std::string>([&](auto r) { service.createQueue(name, attributes, {}, nullptr, r); }).ok();
    };
    auto send = [&](const std::string &name, const std::string &body, std::optional<int> delay,
                    std::optional<std::string> group = {}) {
        SendRequest request;
        request.body = body;
        request.delaySeconds = delay;
        request.groupId = group;
        return callAndWait<SendReceipt>([&](auto r) { service.sendMessage(name, request, nullptr, r); }).ok();
    };
    bool ok = queue("orders-dlq", {});
    ok = ok && queue("orders", {{"RedrivePolicy", "{\"deadLetterTargetArn\":\"" + identity.queueArn("orders-dlq") +
                                                     "\",\"maxReceiveCount\":\"3\"}"}});
    ok = ok && queue("jobs.fifo", {{"FifoQueue", "true"}, {"ContentBasedDeduplication", "true"}});
    ok = ok && callAndWait<std::string>([&](auto r) { service.createTopic("events", {}, {}, nullptr, r); }).ok();
    ok = ok && callAndWait<SubscribeReceipt>([&](auto r) {
                   service.subscribe("events", "sqs", identity.queueArn("orders"), {}, false, nullptr, r);
               }).ok();
    ok = ok && host.mocks().set("audit", "200").ok();
    ok = ok && callAndWait<SubscribeReceipt>([&](auto r) {
                   service.subscribe("events", "http", host.endpointUrl().toStdString() + "/_mock/audit", {}, false,
                                     nullptr, r);
               }).ok();
    for (int i = 0; i < 12 && ok; ++i)
        ok = send("orders", "{\"order\": " + std::to_string(1000 + i) + ", \"item\": \"book\"}", std::nullopt);
    ok = ok && send("orders", "later", 120) && send("orders", "much later", 600);
    for (int i = 0; i < 3 && ok; ++i)
        ok = send("jobs.fifo", "job " + std::to_string(i), std::nullopt, std::string("g1"));
    ok = ok && send("orders-dlq", "failed order", std::nullopt);
    PublishRequest publish;
    publish.message = "{\"event\": \"created\"}";
    ok = ok && callAndWait<PublishReceipt>([&](auto r) { service.publish("events", publish, nullptr, r); }).ok();
    return ok;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    relaydesk::installEnglishPlurals(); // as the window's main does: "1 error", not "1 error(s)"
    QApplication::setOrganizationName(QStringLiteral("Relaydesk"));
    QApplication::setApplicationName(QStringLiteral("Relaydesk"));
    const ScreenshotRun run(app.arguments());
    MainWindow window;
    if (!run.show(window)) {
        std::fprintf(stderr, "window_screenshot: the window was never exposed\n");
        return 1;
    }
    const QTemporaryDir dir;
    const ServeOptions options = screenshotBrokerOptions(dir);
    if (!window.startBroker(options) || !fill(*window.broker())) {
        std::fprintf(stderr, "window_screenshot: the broker did not start or refused the example entities\n");
        return 1;
    }
    auto settle = [&] {
        QSignalSpy refreshed(window.entityModel(), &EntityTreeModel::refreshed);
        window.entityModel()->refresh();
        refreshed.wait(5000);
    };
    for (int i = 0; i < 10 && window.entityModel()->overview().subscriptions.size() < 2; ++i)
        settle(); // a read in flight may predate the last changes
    if (window.entityModel()->overview().subscriptions.size() < 2) {
        std::fprintf(stderr, "window_screenshot: the tree never showed the example entities\n");
        return 1;
    }
    bool ok = true;
    // Every page and tab a picture is meant to show must be there: a missing one fails the run.
    auto select = [&](EntityChange::Entity kind, const QString &name, int tab) {
        if (!window.entityPanel()->selectEntity(LocalEntity{kind, name}) || !window.currentPage() ||
            tab >= window.currentPage()->tabs()->count()) {
            std::fprintf(stderr, "window_screenshot: no page for %s, tab %d\n", qPrintable(name), tab);
            ok = false;
            return;
        }
        window.currentPage()->tabs()->setCurrentIndex(tab);
        settle();
    };
    const QString subscriptionArn = QString::fromStdString(window.entityModel()->overview().subscriptions.front().arn);
    const std::vector<std::pair<QString, std::function<void()>>> pages = {
        {QStringLiteral("dashboard"), [] {}},
        {QStringLiteral("queue-overview"), [&] { select(EntityChange::Entity::Queue, QStringLiteral("orders"), 0); }},
        {QStringLiteral("queue-messages"), [&] { select(EntityChange::Entity::Queue, QStringLiteral("orders"), 2); }},
        {QStringLiteral("queue-messages-received"),
         [&] {
             // Two messages received through the tab's Receive (in flight, counting down), three rows selected.
             select(EntityChange::Entity::Queue, QStringLiteral("orders"), 2);
             auto *page = window.currentPage() ? window.currentPage()->findChild<QueueMessagesPage *>() : nullptr;
             if (!page) {
                 std::fprintf(stderr, "window_screenshot: no Messages tab on orders\n");
                 ok = false;
                 return;
             }
             QSignalSpy finished(page->messageActions(), &QueueMessageActions::finished);
             page->messageActions()->receiveMessages(2, 300);
             finished.wait(5000);
             QSignalSpy loaded(page->model(), &MessageBrowseModel::loaded);
             loaded.wait(2000);
             page->table()->selectRow(0);
             page->table()->selectionModel()->select(page->model()->index(2, 0),
                                                     QItemSelectionModel::Select | QItemSelectionModel::Rows);
             page->table()->selectionModel()->select(page->model()->index(1, 0),
                                                     QItemSelectionModel::Select | QItemSelectionModel::Rows);
         }},
        {QStringLiteral("queue-attributes"), [&] { select(EntityChange::Entity::Queue, QStringLiteral("orders"), 1); }},
        {QStringLiteral("dead-letter-queue"), [&] { select(EntityChange::Entity::Queue, QStringLiteral("orders-dlq"), 0); }},
        {QStringLiteral("dead-letter-sources"), [&] { select(EntityChange::Entity::Queue, QStringLiteral("orders-dlq"), 3); }},
        {QStringLiteral("topic-subscriptions"), [&] { select(EntityChange::Entity::Topic, QStringLiteral("events"), 3); }},
        {QStringLiteral("topic-policy"), [&] { select(EntityChange::Entity::Topic, QStringLiteral("events"), 2); }},
        {QStringLiteral("subscription"), [&] { select(EntityChange::Entity::Subscription, subscriptionArn, 0); }},
        {QStringLiteral("subscription-policy"), [&] { select(EntityChange::Entity::Subscription, subscriptionArn, 2); }},
        {QStringLiteral("filtered"),
         [&] {
             window.entityPanel()->selectEntity(LocalEntity{EntityChange::Entity::Queue, QStringLiteral("jobs.fifo")});
             window.findChild<QAction *>(QStringLiteral("findAction"))->trigger();
             QTest::keyClicks(window.entityPanel()->filterEdit(), QStringLiteral("order"));
         }},
    };
    for (const auto &[name, drive] : pages) {
        drive();
        ok = shootWindow(window, run.out.filePath(QStringLiteral("window-%1.png").arg(name))) && ok;
    }
    // The dialogs a person meets: a create dialog, and a database that cannot be used.
    window.entityActions()->newQueue()->trigger();
    if (auto *dialog = window.findChild<QDialog *>(); dialog && QTest::qWaitForWindowExposed(dialog)) {
        ok = shootWindow(*dialog, run.out.filePath(QStringLiteral("dialog-new-queue.png"))) && ok;
        dialog->reject();
    } else {
        std::fprintf(stderr, "window_screenshot: New Queue opened no dialog\n");
        ok = false;
    }
    auto held = Database::open(dir.filePath(QStringLiteral("busy.db")).toStdString());
    window.openDatabase(dir.filePath(QStringLiteral("busy.db")));
    if (DatabaseProblemDialog *problem = window.problemDialog(); problem && QTest::qWaitForWindowExposed(problem)) {
        ok = shootWindow(*problem, run.out.filePath(QStringLiteral("dialog-database-in-use.png"))) && ok;
        ok = shootWindow(window, run.out.filePath(QStringLiteral("window-no-broker.png"))) && ok;
    } else {
        std::fprintf(stderr, "window_screenshot: no dialog for a database in use\n");
        ok = false;
    }
    return ok ? 0 : 1;
}
