// SPDX-License-Identifier: MIT
// Screenshots of the tree with connections and a remote queue's page
// (docs/window.md "Connections"): two AWS profiles whose endpoint_url is the
// window's own broker (a loopback broker without --credentials takes any
// key) — "staging", and "live" marked production — both listed; the page of
// live's `orders` after a send and a poll; the purge confirmation that wants
// the name typed; live's topic `events` with a subscription added and one
// refused. Not a test: what the pictures show is asserted by
// connection_tree_test and remote_connection_window_test.
#include "dialogs/confirm_name_dialog.h"
#include "engine/broker_service.h"
#include "host/broker_host.h"
#include "support/call_and_wait.h"
#include "models/connection_registry.h"
#include "models/entity_tree_model.h"
#include "screenshot_support.h"
#include "views/entity_tree_panel.h"
#include "views/main_window.h"
#include "views/remote_entity_page.h"
#include "views/remote_subscriptions_panel.h"
#include "views/remote_messages_panel.h"
#include "widgets/connection_call_bar.h"
#include "widgets/english_plurals.h"

#include <QAbstractProxyModel>
#include <QApplication>
#include <QFile>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

#include <cstdio>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

int fail(const char *why)
{
    std::fprintf(stderr, "connections_screenshot: %s\n", why);
    return 1;
}

bool createQueue(BrokerHost &host, const std::string &name)
{
    return callAndWait<std::string>([&](auto r) { host.service().createQueue(name, {}, {}, nullptr, r); }).ok();
}

bool createTopic(BrokerHost &host, const std::string &name)
{
    return callAndWait<std::string>([&](auto r) { host.service().createTopic(name, {}, {}, nullptr, r); }).ok();
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    installEnglishPlurals();
    QApplication::setOrganizationName(QStringLiteral("Relaydesk"));
    QApplication::setApplicationName(QStringLiteral("Relaydesk"));
    const ScreenshotRun run(app.arguments());
    const QTemporaryDir dir;
    qputenv("AWS_CONFIG_FILE", dir.filePath(QStringLiteral("aws-config")).toUtf8());
    qputenv("AWS_SHARED_CREDENTIALS_FILE", dir.filePath(QStringLiteral("aws-credentials")).toUtf8());
    MainWindow window;
    if (!run.show(window))
        return fail("the window was never exposed");
    if (!window.startBroker(screenshotBrokerOptions(dir)) || !createQueue(*window.broker(), "orders") ||
        !createQueue(*window.broker(), "invoices") || !createTopic(*window.broker(), "events"))
        return fail("the broker did not start");
    QFile config(dir.filePath(QStringLiteral("aws-config")));
    QFile credentials(dir.filePath(QStringLiteral("aws-credentials")));
    if (!config.open(QIODevice::WriteOnly) || !credentials.open(QIODevice::WriteOnly))
        return fail("cannot write the AWS files");
    const QString url = window.broker()->endpointUrl();
    config.write(QStringLiteral("[profile staging]\nregion = eu-west-3\nendpoint_url = %1\n\n"
                                "[profile live]\nregion = eu-central-1\nendpoint_url = %1\n").arg(url).toUtf8());
    credentials.write("[staging]\naws_access_key_id = AKIDSTAGING\naws_secret_access_key = s\n\n"
                      "[live]\naws_access_key_id = AKIDLIVE\naws_secret_access_key = s\n");
    config.close();
    credentials.close();
    {   // This computer's tree shows the two queues too
        QSignalSpy refreshed(window.entityModel(), &EntityTreeModel::refreshed);
        window.entityModel()->refresh();
        refreshed.wait(5000);
    }
    window.connections()->reload();
    window.connections()->setProduction(QStringLiteral("aws:live"), true);

    EntityTreeModel *model = window.entityModel();
    QTreeView *tree = window.entityPanel()->treeView();
    auto *proxy = qobject_cast<QAbstractProxyModel *>(tree->model());
    for (const QString &id : {QStringLiteral("aws:staging"), QStringLiteral("aws:live")}) {
        QSignalSpy loaded(model, &EntityTreeModel::connectionLoaded);
        tree->expand(proxy->mapFromSource(model->connectionIndex(id)));
        if (!loaded.wait(30000))
            return fail("a connection was never listed");
    }
    const QModelIndex live = model->connectionIndex(QStringLiteral("aws:live"));
    RemoteEntity orders;
    RemoteEntity events;
    for (int row = 0; row < model->rowCount(live); ++row) {
        const auto entity = qvariant_cast<RemoteEntity>(model->index(row, 0, live).data(EntityTreeModel::RemoteEntityRole));
        if (entity.name == QLatin1String("orders"))
            orders = entity;
        if (entity.name == QLatin1String("events"))
            events = entity;
    }
    if (orders.isNull() || !window.entityPanel()->selectRemote(orders) || !window.remotePage())
        return fail("no page for live's orders");
    RemoteEntityPage *page = window.remotePage();
    const auto settled = [page] { return QTest::qWaitFor([page] { return !page->callBar()->busy(); }, 30000); };
    settled();
    for (const char *body : {R"({"order": 1041, "total": "19.90"})", R"({"order": 1042, "total": "7.50"})"}) {
        page->bodyEdit()->setPlainText(QString::fromUtf8(body));
        page->sendButton()->click();
        settled();
    }
    page->messages()->lookButton()->click();
    settled();
    bool ok = shootWindow(window, run.out.filePath(QStringLiteral("window-connections.png")));
    page->purgeButton()->click();
    if (auto *confirm = page->findChild<ConfirmNameDialog *>(); confirm && QTest::qWaitForWindowExposed(confirm)) {
        QTest::keyClicks(confirm->nameField(), QStringLiteral("ord"));
        ok = shootWindow(*confirm, run.out.filePath(QStringLiteral("dialog-production-purge.png"))) && ok;
        confirm->reject();
    } else {
        ok = fail("Purge… asked nothing") == 0;
    }
    // live's topic: its subscriptions, one added by protocol and endpoint.
    if (events.isNull() || !window.entityPanel()->selectRemote(events) || !window.remotePage() ||
        !window.remotePage()->subscriptions())
        return fail("no page for live's events");
    page = window.remotePage();
    if (!QTest::qWaitFor([page] { return !page->callBar()->busy(); }, 30000))
        return fail("events' page never settled");
    RemoteSubscriptionsPanel *subscriptions = page->subscriptions();
    subscriptions->protocolBox()->setCurrentText(QStringLiteral("https"));
    subscriptions->endpointEdit()->setText(QStringLiteral("https://hooks.example.com/orders"));
    subscriptions->addButton()->click();
    if (!QTest::qWaitFor([subscriptions] { return subscriptions->table()->rowCount() == 1; }, 30000))
        return fail("the subscription was never listed");
    subscriptions->protocolBox()->setCurrentText(QStringLiteral("sqs"));
    subscriptions->endpointEdit()->setText(QStringLiteral("orders"));
    subscriptions->addButton()->click();   // not an ARN: SNS's refusal beside the button
    if (!QTest::qWaitFor([subscriptions] { return subscriptions->error()->isVisible(); }, 30000))
        return fail("SNS never refused the bad endpoint");
    ok = shootWindow(window, run.out.filePath(QStringLiteral("window-connection-topic.png"))) && ok;
    return ok ? 0 : 1;
}
