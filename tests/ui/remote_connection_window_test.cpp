// SPDX-License-Identifier: MIT
// The window administers another broker (docs/window.md "Connections"), end
// to end against `relaydesk serve --credentials --config` in a process of its
// own, as a person would: an AWS profile of the AWS files whose keys match
// (expand, open a queue, send, poll, delete the polled message) and one whose
// keys do not (the broker's words on the row); another Relaydesk added with
// Add Connection… as "production" (peek, purge only after the name is typed)
// and one without its bearer token (the broker's 401 beside Peek); a Service
// Bus namespace added by its connection string (the management API: list,
// attributes, delete after the name is typed; a wrong key's 401 on the row;
// over AMQP, through the accessibility tree: poll, abandon, complete, dead-letter with a
// reason, the dead-letter queue, resubmit; a lock lost in the service's words
// beside Complete; a CA file that cannot be read refused);
// a Zaqar endpoint with its project and token (send, peek, purge), and with
// Keystone credentials a FakeKeystone in this process answers with one of
// the broker's bearer tokens (list, open, send; edited back without the
// password's text; a wrong password's refusal on the row); another
// Relaydesk's deliveries and attempts of a subscription, its virtual clock
// advanced from the page; a production AWS profile's dead-letter queue moved
// back to its source after the name is typed; another Relaydesk's mock
// endpoints made, hit, read, cleared and deleted from Mock Endpoints….
#include "charts/attempt_chart.h"
#include "core/connections/connection_test_support.h"
#include "core/connections/fake_keystone.h"
#include "dialogs/add_connection_dialog.h"
#include "connections/relaydesk_connection.h"
#include "connections/servicebus_connection.h"
#include "connections/zaqar_connection.h"
#include "dialogs/confirm_name_dialog.h"
#include "models/connection_registry.h"
#include "models/entity_tree_model.h"
#include "support/server_process.h"
#include "support/test_main.h"
#include "views/entity_tree_panel.h"
#include "views/main_window.h"
#include "views/remote_clock_bar.h"
#include "views/remote_dead_letter_bar.h"
#include "views/remote_deliveries_panel.h"
#include "views/remote_entity_page.h"
#include "views/remote_messages_panel.h"
#include "views/remote_mocks_window.h"
#include "views/remote_subscriptions_panel.h"
#include "widgets/connection_call_bar.h"
#include "widgets/field_error.h"
#include "window_test_support.h"

#include <QAbstractProxyModel>
#include <QAccessible>
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QInputDialog>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>
#include <QTreeView>

using namespace relaydesk;

namespace {

const QString kKeyId = QStringLiteral("AKIDWINDOWTEST");
const QString kSecret = QStringLiteral("window-test-secret");
const QString kToken = QStringLiteral("window-test-token");
const QString kSasKey = QStringLiteral("d2luZG93LXRlc3Qtc2FzLWtleQ==");

void writeFile(const QString &path, const QString &text)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text.toUtf8());
}

// Waits until the page's call (and any it started) has answered.
bool settled(RemoteEntityPage *page)
{
    return QTest::qWaitFor([page] { return !page->callBar()->busy(); }, 60000);
}

// Presses a destructive action of a production connection's page, types the
// entity's name where it asks for it, confirms and waits for the call.
void confirmByTypingTheName(RemoteEntityPage *page, QAbstractButton *action, const QString &name)
{
    QTest::mouseClick(action, Qt::LeftButton);
    auto *confirm = page->findChild<ConfirmNameDialog *>();
    QVERIFY(confirm && confirm->nameField());
    QTest::keyClicks(confirm->nameField(), name);
    QVERIFY(confirm->acceptButton()->isEnabled());
    QTest::mouseClick(confirm->acceptButton(), Qt::LeftButton);
    QVERIFY(settled(page));
}

// The accessible object under `root` with `role` and `name`, as a screen
// reader finds it (breadth first); null when there is none.
QAccessibleInterface *accessibleNamed(QWidget *root, QAccessible::Role role, const QString &name)
{
    QList<QAccessibleInterface *> queue{QAccessible::queryAccessibleInterface(root)};
    while (!queue.isEmpty()) {
        QAccessibleInterface *item = queue.takeFirst();
        if (!item)
            continue;
        if (item->role() == role && item->text(QAccessible::Name) == name && !item->state().invisible)
            return item;
        for (int i = 0; i < item->childCount(); ++i)
            queue << item->child(i);
    }
    return nullptr;
}

// Presses (a button) or toggles (a check box) the control named `name` through
// its accessible action, and waits for the click (Qt animates it: the button
// is down until then); false when it is missing or disabled.
bool press(QWidget *root, QAccessible::Role role, const QString &name)
{
    QAccessibleInterface *control = accessibleNamed(root, role, name);
    if (!control || control->state().disabled || !control->actionInterface())
        return false;
    const QStringList actions = control->actionInterface()->actionNames();
    control->actionInterface()->doAction(actions.contains(QAccessibleActionInterface::toggleAction())
                                             ? QAccessibleActionInterface::toggleAction()
                                             : QAccessibleActionInterface::pressAction());
    auto *button = qobject_cast<QAbstractButton *>(control->object());
    return !button || QTest::qWaitFor([button] { return !button->isDown(); }, 10000);
}

// Presses the page's button `name` and waits for its call to answer.
bool pressAndWait(RemoteEntityPage *page, const QString &name)
{
    return press(page, QAccessible::PushButton, name) && settled(page);
}

// The column `column` (1: Body, 2: State) of the table named "Messages". Its
// cells are read from the widget: after a row is removed, Qt 6.4's accessible
// table answers empty names for the rows that moved up.
QStringList messageColumn(QWidget *root, int column)
{
    QStringList cells;
    QAccessibleInterface *found = accessibleNamed(root, QAccessible::Table, QStringLiteral("Messages"));
    auto *table = found ? qobject_cast<QTableWidget *>(found->object()) : nullptr;
    for (int row = 0; table && row < table->rowCount(); ++row)
        cells << table->item(row, column)->text();
    return cells;
}

// Selects the Messages row whose body is `body` through the table's accessible interface.
bool selectMessage(QWidget *root, const QString &body)
{
    const int row = static_cast<int>(messageColumn(root, 1).indexOf(body));
    QAccessibleInterface *table = accessibleNamed(root, QAccessible::Table, QStringLiteral("Messages"));
    return row >= 0 && table->tableInterface()->selectRow(row);
}

} // namespace

class RemoteConnectionWindowTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        const QString credentials = m_dir.filePath(QStringLiteral("credentials.json"));
        writeFile(credentials, QStringLiteral(R"({"accessKeys": {"%1": "%2"}, "bearerTokens": ["%3"],
                                                 "sharedAccessKeys": {"RootManageSharedAccessKey": "%4"}})")
                                   .arg(kKeyId, kSecret, kToken, kSasKey));
        const QString config = m_dir.filePath(QStringLiteral("config.json"));
        writeFile(config, QStringLiteral(R"({"version": 1, "queues": [{"name": "orders"}], "topics": [{"name": "events"}]})"));
        m_url = m_server.start(QStringLiteral(RELAYDESK_BINARY),
                               {"serve", "--port", "0", "--amqp-port", "0", "--amqps-port", "off", "--sb-management-port",
                                "0", "--db", ":memory:", "--clock", "virtual", "--credentials", credentials, "--config", config},
                               QStringLiteral("relaydesk: listening on "));
        QVERIFY2(!m_url.isEmpty(), qPrintable(m_server.errors()));
        m_amqp = QUrl(m_server.readyLine(QStringLiteral("relaydesk: listening on ")));
        QVERIFY2(m_amqp.scheme() == QLatin1String("amqp"), qPrintable(m_server.errors()));
        // The management port answers TLS or plain HTTP by the first byte: plain here.
        m_management = m_server.readyLine(QStringLiteral("relaydesk: listening on "));
        QVERIFY2(!m_management.isEmpty(), qPrintable(m_server.errors()));
        m_management.replace(QStringLiteral("https://"), QStringLiteral("http://"));
    }

    void init()
    {
        m_settings = std::make_unique<QTemporaryDir>();
        testing::keepSettingsIn(*m_settings);
        QSettings(QStringLiteral("Relaydesk"), QStringLiteral("Relaydesk")).clear();
        writeFile(m_settings->filePath(QStringLiteral("aws-config")),
                  QStringLiteral("[profile shared-ok]\nregion = eu-west-3\nendpoint_url = %1\n\n"
                                 "[profile shared-wrong]\nregion = eu-west-3\nendpoint_url = %1\n").arg(m_url));
        writeFile(m_settings->filePath(QStringLiteral("aws-credentials")),
                  QStringLiteral("[shared-ok]\naws_access_key_id = %1\naws_secret_access_key = %2\n\n"
                                 "[shared-wrong]\naws_access_key_id = %1\naws_secret_access_key = not-the-secret\n")
                      .arg(kKeyId, kSecret));
        m_window = std::make_unique<MainWindow>();
        QVERIFY(m_window->startBroker(testing::testBrokerOptions(m_settings->filePath(QStringLiteral("broker.db")))));
        m_window->show();
    }

    void cleanup() { m_window.reset(); }

    void awsProfile_matchingKeys_sendPollDelete()
    {
        expand(QStringLiteral("aws:shared-ok"));
        RemoteEntityPage *page = open(QStringLiteral("aws:shared-ok"), QStringLiteral("orders"));
        QVERIFY(page);
        QVERIFY(settled(page));
        QVERIFY(page->attributeTable()->rowCount() > 0);   // the queue's attributes, as SQS names them
        QVERIFY(!page->clockBar());   // an AWS service keeps the wall clock
        page->bodyEdit()->setPlainText(QStringLiteral("hello from the window"));
        QTest::mouseClick(page->sendButton(), Qt::LeftButton);
        QVERIFY(settled(page));
        QVERIFY2(page->actionError()->isHidden(), qPrintable(page->actionError()->text()));
        // SQS has no peek: the Messages part polls, and says so.
        RemoteMessagesPanel *messages = page->messages();
        QVERIFY(messages->polls());
        QCOMPARE(messages->lookButton()->text(), QStringLiteral("P&oll messages"));
        QTest::mouseClick(messages->lookButton(), Qt::LeftButton);
        QVERIFY(settled(page));
        QCOMPARE(messages->table()->rowCount(), 1);
        QCOMPARE(messages->table()->item(0, 1)->text(), QStringLiteral("hello from the window"));
        QVERIFY(!messages->deleteButton()->isEnabled());   // nothing selected
        messages->table()->selectRow(0);
        QVERIFY(messages->deleteButton()->isEnabled());
        QTest::mouseClick(messages->deleteButton(), Qt::LeftButton);
        QVERIFY(settled(page));
        QVERIFY2(messages->error()->isHidden(), qPrintable(messages->error()->text()));
        QCOMPARE(messages->table()->rowCount(), 0);
        // SQS has no dead-letter subqueue: the row is disabled with its reason.
        QVERIFY(!messages->deadLetterBar()->subqueueBox()->isEnabled());
        QCOMPARE(messages->deadLetterBar()->abandonButton()->toolTip(),
                 QStringLiteral("An SQS dead-letter queue is a queue of its own (the redrive policy names it)."));
    }

    void awsProfile_keysThatDoNotMatch_theBrokersWordsOnTheRow()
    {
        const QModelIndex row = expand(QStringLiteral("aws:shared-wrong"));
        const QModelIndex status = row.model()->index(0, 0, row);
        QVERIFY(status.data(EntityTreeModel::StatusRole).toBool());
        QVERIFY2(status.data().toString().startsWith(QStringLiteral("SQS SignatureDoesNotMatch (HTTP 403): ")),
                 qPrintable(status.data().toString()));
    }

    void relaydesk_production_peekAndPurgeAfterTypingTheName()
    {
        AddConnectionDialog *dialog = openAddConnection();
        dialog->kindBox()->setCurrentIndex(1);   // Another Relaydesk
        QVERIFY(!dialog->tokenEdit()->isHidden());
        QVERIFY(dialog->secretsNote()->text().contains(QStringLiteral("memory for this session only")));
        dialog->nameEdit()->setText(QStringLiteral("team-broker"));
        dialog->urlEdit()->setText(m_url);
        dialog->accessKeyEdit()->setText(kKeyId);
        dialog->secretEdit()->setText(kSecret);
        dialog->tokenEdit()->setText(kToken);
        dialog->productionBox()->setChecked(true);
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("connectionOk")), Qt::LeftButton);
        QVERIFY(dialog->isHidden());

        const QModelIndex row = expand(QStringLiteral("window:team-broker"));
        QVERIFY(row.data(Qt::AccessibleTextRole).toString().endsWith(QStringLiteral("— production")));
        RemoteEntityPage *page = open(QStringLiteral("window:team-broker"), QStringLiteral("orders"));
        QVERIFY(page);
        QVERIFY(m_window->windowTitle().contains(QStringLiteral("PRODUCTION")));
        QVERIFY(settled(page));
        page->bodyEdit()->setPlainText(QStringLiteral("to be purged"));
        QTest::mouseClick(page->sendButton(), Qt::LeftButton);
        QVERIFY(settled(page));
        RemoteMessagesPanel *messages = page->messages();
        QVERIFY(!messages->polls());   // Relaydesk peeks with its bearer token
        QTest::mouseClick(messages->lookButton(), Qt::LeftButton);
        QVERIFY(settled(page));
        QVERIFY2(messages->error()->isHidden(), qPrintable(messages->error()->text()));
        QCOMPARE(messages->table()->rowCount(), 1);
        QCOMPARE(messages->table()->item(0, 1)->text(), QStringLiteral("to be purged"));

        QTest::mouseClick(page->purgeButton(), Qt::LeftButton);
        auto *confirm = page->findChild<ConfirmNameDialog *>();
        QVERIFY(confirm && confirm->isVisible());
        QVERIFY(!confirm->acceptButton()->isEnabled());
        QTest::keyClicks(confirm->nameField(), QStringLiteral("order"));
        QVERIFY(!confirm->acceptButton()->isEnabled());   // not yet the name
        QTest::keyClicks(confirm->nameField(), QStringLiteral("s"));
        QVERIFY(confirm->acceptButton()->isEnabled());
        QTest::mouseClick(confirm->acceptButton(), Qt::LeftButton);
        QVERIFY(settled(page));
        QVERIFY2(page->actionError()->isHidden(), qPrintable(page->actionError()->text()));
        QTest::mouseClick(messages->lookButton(), Qt::LeftButton);
        QVERIFY(settled(page));
        QCOMPARE(messages->table()->rowCount(), 0);
    }

    void relaydesk_withoutToken_theBrokers401BesidePeek()
    {
        AddConnectionDialog *dialog = openAddConnection();
        dialog->kindBox()->setCurrentIndex(1);
        dialog->nameEdit()->setText(QStringLiteral("no-token"));
        dialog->urlEdit()->setText(m_url);
        dialog->accessKeyEdit()->setText(kKeyId);
        dialog->secretEdit()->setText(kSecret);
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("connectionOk")), Qt::LeftButton);
        expand(QStringLiteral("window:no-token"));
        RemoteEntityPage *page = open(QStringLiteral("window:no-token"), QStringLiteral("orders"));
        QVERIFY(page);
        QVERIFY(settled(page));
        QVERIFY(!m_window->windowTitle().contains(QStringLiteral("PRODUCTION")));
        QTest::mouseClick(page->messages()->lookButton(), Qt::LeftButton);
        QVERIFY(settled(page));
        QVERIFY(!page->messages()->error()->isHidden());
        QVERIFY2(page->messages()->error()->text().startsWith(QStringLiteral("Relaydesk Unauthorized (HTTP 401)")),
                 qPrintable(page->messages()->error()->text()));
        // Not production: Delete asks, but no name is to be typed.
        QTest::mouseClick(page->deleteButton(), Qt::LeftButton);
        auto *confirm = page->findChild<ConfirmNameDialog *>();
        QVERIFY(confirm && !confirm->nameField());
        QVERIFY(confirm->acceptButton()->isEnabled());
        confirm->reject();
    }

    // An AWS profile added through the dialog: into the AWS files (their own
    // format, where the AWS CLI sees it) or kept by the window alone.
    void awsProfileAdded_inTheAwsFilesOrTheWindow_data()
    {
        QTest::addColumn<bool>("awsFiles");
        QTest::addColumn<QString>("id");
        QTest::newRow("AWS files") << true << QStringLiteral("aws:added");
        QTest::newRow("window only") << false << QStringLiteral("window:added");
    }
    void awsProfileAdded_inTheAwsFilesOrTheWindow()
    {
        QFETCH(bool, awsFiles);
        QFETCH(QString, id);
        AddConnectionDialog *dialog = openAddConnection();
        QVERIFY(!dialog->regionEdit()->isHidden());
        dialog->nameEdit()->setText(QStringLiteral("added"));
        dialog->regionEdit()->setText(QStringLiteral("ap-south-1"));
        dialog->urlEdit()->setText(m_url);
        dialog->accessKeyEdit()->setText(kKeyId);
        dialog->secretEdit()->setText(kSecret);
        dialog->awsFilesBox()->setChecked(awsFiles);
        QCOMPARE(dialog->secretsNote()->isHidden(), awsFiles);   // the keys go to the AWS files, not the secret store
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("connectionOk")), Qt::LeftButton);
        QVERIFY2(dialog->isHidden(), qPrintable(dialog->nameError()->message()));
        QFile config(m_settings->filePath(QStringLiteral("aws-config")));
        QVERIFY(config.open(QIODevice::ReadOnly));
        QCOMPARE(config.readAll().contains("[profile added]\nregion = ap-south-1\n"), awsFiles);
        QFile credentials(m_settings->filePath(QStringLiteral("aws-credentials")));
        QVERIFY(credentials.open(QIODevice::ReadOnly));
        QCOMPARE(credentials.readAll().contains(kSecret.toUtf8()), true);   // the two profiles of init() have it
        QCOMPARE(m_window->entityModel()->connectionIndex(id).data().toString(), QStringLiteral("added (ap-south-1)"));
        expand(id);
        RemoteEntityPage *page = open(id, QStringLiteral("orders"));
        QVERIFY(page);
        QVERIFY(settled(page));
        QVERIFY2(page->messages()->error()->isHidden(), qPrintable(page->messages()->error()->text()));
        QVERIFY(page->attributeTable()->rowCount() > 0);   // signed with the keys given
    }

    void badConnection_theDialogSaysWhy_staysOpen()
    {
        AddConnectionDialog *dialog = openAddConnection();
        dialog->kindBox()->setCurrentIndex(1);
        dialog->nameEdit()->setText(QStringLiteral("has space"));
        dialog->urlEdit()->setText(m_url);
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("connectionOk")), Qt::LeftButton);
        QVERIFY(dialog->isVisible());
        QCOMPARE(dialog->nameError()->message(),
                 QStringLiteral("A connection's name cannot be empty or contain spaces, brackets or slashes."));
        QVERIFY(m_window->connections()->entries().size() == 2);   // the two profiles only
        dialog->reject();
    }

    // Another Relaydesk's clock on its page: read, and advanced (the broker runs --clock virtual).
    void relaydesk_clockReadAndAdvanced()
    {
        addRelaydesk(QStringLiteral("clocked"));
        expand(QStringLiteral("window:clocked"));
        RemoteEntityPage *page = open(QStringLiteral("window:clocked"), QStringLiteral("orders"));
        QVERIFY(page && page->clockBar());
        RemoteClockBar *clock = page->clockBar();
        QVERIFY(QTest::qWaitFor([clock] { return clock->timeLabel()->text().endsWith(QStringLiteral("— virtual")); }, 60000));
        QVERIFY(settled(page));
        const QString before = clock->timeLabel()->text();
        QVERIFY(clock->advanceButton()->isEnabled());
        clock->secondsBox()->setValue(3600);
        QTest::mouseClick(clock->advanceButton(), Qt::LeftButton);
        QVERIFY(settled(page));
        QVERIFY2(clock->error()->isHidden(), qPrintable(clock->error()->text()));
        const auto timeOf = [](const QString &label) {
            return QDateTime::fromString(label.section(QLatin1Char(' '), 2, 3), QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        };
        QVERIFY2(timeOf(before).isValid(), qPrintable(before));
        const qint64 moved = timeOf(before).secsTo(timeOf(clock->timeLabel()->text()));
        QVERIFY2(moved >= 3600 && moved <= 3601, qPrintable(clock->timeLabel()->text()));   // a virtual clock moves only when advanced
    }

    // Connection ▸ New Queue… on another Relaydesk: the queue is made there and listed; a bad name is refused in SQS's words.
    void relaydesk_newQueueFromTheConnectionMenu()
    {
        AddConnectionDialog *dialog = openAddConnection();
        dialog->kindBox()->setCurrentIndex(1);
        dialog->nameEdit()->setText(QStringLiteral("creating"));
        dialog->urlEdit()->setText(m_url);
        dialog->accessKeyEdit()->setText(kKeyId);
        dialog->secretEdit()->setText(kSecret);
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("connectionOk")), Qt::LeftButton);
        const QString id = QStringLiteral("window:creating");
        expand(id);
        QVERIFY(createFromTheMenu(id, QStringLiteral("made-in-the-window")));
        QSignalSpy loaded(m_window->entityModel(), &EntityTreeModel::connectionLoaded);
        QVERIFY(loaded.wait(60000));   // listed again once made
        QVERIFY(open(id, QStringLiteral("made-in-the-window")));

        QVERIFY(createFromTheMenu(id, QStringLiteral("not a name!")));
        QMessageBox *refused = nullptr;
        QVERIFY(QTest::qWaitFor([&] { return (refused = m_window->findChild<QMessageBox *>(QStringLiteral("remoteCreateError"))); }, 60000));
        QVERIFY2(refused->text().startsWith(QStringLiteral("The Queue was not created: SQS ")), qPrintable(refused->text()));
        refused->close();
    }

    // A topic's page lists its subscriptions and subscribes (SNS's protocol and endpoint); a refusal in SNS's words.
    void awsProfile_topicSubscriptionsListedAndAdded()
    {
        expand(QStringLiteral("aws:shared-ok"));
        RemoteEntityPage *page = open(QStringLiteral("aws:shared-ok"), QStringLiteral("events"), true);
        QVERIFY(page && page->subscriptions());
        RemoteSubscriptionsPanel *subscriptions = page->subscriptions();
        QVERIFY(settled(page));
        subscriptions->protocolBox()->setCurrentText(QStringLiteral("http"));
        subscriptions->endpointEdit()->setText(QStringLiteral("http://127.0.0.1:9/hook"));
        QTest::mouseClick(subscriptions->addButton(), Qt::LeftButton);
        QVERIFY(settled(page));
        QVERIFY2(subscriptions->error()->isHidden(), qPrintable(subscriptions->error()->text()));
        QVERIFY(QTest::qWaitFor([subscriptions] {
            return !subscriptions->table()->findItems(QStringLiteral("http http://127.0.0.1:9/hook"), Qt::MatchExactly).isEmpty();
        }, 60000));

        subscriptions->protocolBox()->setCurrentText(QStringLiteral("sqs"));
        subscriptions->endpointEdit()->setText(QStringLiteral("not-an-arn"));
        QTest::mouseClick(subscriptions->addButton(), Qt::LeftButton);
        QVERIFY(settled(page));
        QVERIFY(!subscriptions->error()->isHidden());
        QVERIFY2(subscriptions->error()->text().startsWith(QStringLiteral("SNS ")), qPrintable(subscriptions->error()->text()));
        QCOMPARE(subscriptions->table()->rowCount(), 1);   // nothing added
        QVERIFY(!open(QStringLiteral("aws:shared-ok"), QStringLiteral("orders"))->subscriptions());   // a queue has none
    }

    // Another Relaydesk with its token: a topic's subscription to a mock that fails twice; the page
    // advances the remote virtual clock (the retries run there), lists the deliveries, shows the attempts.
    void relaydesk_deliveriesAndAttemptsOfASubscription()
    {
        native("PUT", QStringLiteral("mocks/flaky"), {{QStringLiteral("script"), QStringLiteral("503 x 2, then 200")}});
        const QString arn = native("POST", QStringLiteral("topics/events/subscriptions"),
                                   {{QStringLiteral("protocol"), QStringLiteral("http")},
                                    {QStringLiteral("endpoint"), m_url + QStringLiteral("/_mock/flaky")},
                                    {QStringLiteral("autoConfirm"), true}})
                                .value(QStringLiteral("subscriptionArn")).toString();
        QVERIFY(!arn.isEmpty());
        native("POST", QStringLiteral("topics/events/messages"), {{QStringLiteral("message"), QStringLiteral("retried")}});
        addRelaydesk(QStringLiteral("delivering"));
        expand(QStringLiteral("window:delivering"));
        RemoteEntityPage *page = open(QStringLiteral("window:delivering"), QStringLiteral("events"), true);
        QVERIFY(page && page->deliveries() && page->clockBar());
        RemoteClockBar *clock = page->clockBar();
        QVERIFY(QTest::qWaitFor([clock] { return clock->advanceButton()->isEnabled(); }, 60000));   // read: virtual
        clock->secondsBox()->setValue(120);
        QTest::mouseClick(clock->advanceButton(), Qt::LeftButton);
        QVERIFY(settled(page));
        QVERIFY2(clock->error()->isHidden(), qPrintable(clock->error()->text()));

        QTableWidget *subscriptions = page->subscriptions()->table();
        int row = -1;
        QVERIFY(QTest::qWaitFor([&] {
            for (int i = 0; i < subscriptions->rowCount(); ++i)
                if (subscriptions->item(i, 0)->data(Qt::UserRole).toString() == arn)
                    row = i;
            return row >= 0;
        }, 60000));
        subscriptions->setCurrentCell(row, 0);
        QVERIFY(settled(page));
        RemoteDeliveriesPanel *deliveries = page->deliveries();
        QCOMPARE(page->parts()->tabText(1), QStringLiteral("Deliveries"));
        page->parts()->setCurrentIndex(1);   // a click on the Deliveries tab
        QVERIFY2(deliveries->error()->isHidden(), qPrintable(deliveries->error()->text()));
        QCOMPARE(deliveries->deliveries()->rowCount(), 1);
        QCOMPARE(deliveries->deliveries()->item(0, 1)->text(), QStringLiteral("3"));
        QCOMPARE(deliveries->deliveries()->item(0, 3)->text(), QStringLiteral("delivered"));
        deliveries->deliveries()->setCurrentCell(0, 0);
        QVERIFY(settled(page));
        QTableWidget *attempts = deliveries->attempts();
        QCOMPARE(attempts->rowCount(), 3);
        const QStringList statuses{attempts->item(0, 2)->text(), attempts->item(1, 2)->text(), attempts->item(2, 2)->text()};
        QCOMPARE(statuses, (QStringList{QStringLiteral("503"), QStringLiteral("503"), QStringLiteral("200")}));
        QCOMPARE(attempts->item(0, 1)->text(), QStringLiteral("initial"));
        QCOMPARE(attempts->item(2, 6)->text(), QStringLiteral("delivered"));
        QVERIFY(deliveries->chart()->isVisible());
    }

    // Connection ▸ Mock Endpoints… of another Relaydesk: a bad script refused in the broker's words
    // (nothing made), a mock made, a request to it read with its body, forgotten, the mock deleted.
    // An AWS profile's menu has the action disabled with the reason.
    void relaydesk_mockEndpointsMadeReadAndDeleted()
    {
        QAction *disabled = connectionAction(QStringLiteral("aws:shared-ok"), QStringLiteral("remoteMocksAction"));
        QVERIFY(disabled && !disabled->isEnabled());
        QVERIFY2(disabled->toolTip().contains(QStringLiteral("mock"), Qt::CaseInsensitive), qPrintable(disabled->toolTip()));

        addRelaydesk(QStringLiteral("mocking"));
        QAction *action = connectionAction(QStringLiteral("window:mocking"), QStringLiteral("remoteMocksAction"));
        QVERIFY(action && action->isEnabled());
        action->trigger();
        auto *mocks = m_window->findChild<RemoteMocksWindow *>();
        QVERIFY(mocks && mocks->isVisible());
        const auto idle = [mocks] { return QTest::qWaitFor([mocks] { return !mocks->callBar()->busy(); }, 60000); };
        QVERIFY(idle());

        QTest::keyClicks(mocks->nameEdit(), QStringLiteral("window-made"));
        QTest::keyClicks(mocks->scriptEdit(), QStringLiteral("503 x , then 200"));
        QTest::mouseClick(mocks->setScriptButton(), Qt::LeftButton);
        QVERIFY(idle());
        QVERIFY(!mocks->error()->isHidden());
        QVERIFY2(mocks->error()->text().contains(QStringLiteral("repeat count")), qPrintable(mocks->error()->text()));
        QVERIFY(mocks->endpoints()->findItems(QStringLiteral("window-made"), Qt::MatchExactly).isEmpty());

        mocks->scriptEdit()->clear();
        QTest::keyClicks(mocks->scriptEdit(), QStringLiteral("503 x 1, then 200"));
        QTest::mouseClick(mocks->setScriptButton(), Qt::LeftButton);
        QVERIFY(QTest::qWaitFor([mocks] { return !mocks->endpoints()->findItems(QStringLiteral("window-made"), Qt::MatchExactly).isEmpty(); }, 60000));
        QVERIFY(idle());
        QVERIFY2(mocks->error()->isHidden(), qPrintable(mocks->error()->text()));

        std::unique_ptr<QNetworkReply> hit(m_network.post(QNetworkRequest(QUrl(m_url + QStringLiteral("/_mock/window-made"))), QByteArrayLiteral("ping")));
        QSignalSpy answered(hit.get(), &QNetworkReply::finished);
        QVERIFY(hit->isFinished() || answered.wait(30000));
        QTest::keyClick(mocks, Qt::Key_F5);
        QVERIFY(QTest::qWaitFor([mocks] { return mocks->requests()->rowCount() == 1; }, 60000));
        QVERIFY(idle());
        const int row = mocks->endpoints()->findItems(QStringLiteral("window-made"), Qt::MatchExactly).first()->row();
        QCOMPARE(mocks->endpoints()->item(row, 3)->text(), QStringLiteral("1"));
        QCOMPARE(mocks->requests()->item(0, 1)->text(), QStringLiteral("POST"));
        QCOMPARE(mocks->requests()->item(0, 3)->text(), QStringLiteral("503"));
        mocks->requests()->setCurrentCell(0, 0);
        QCOMPARE(mocks->findChild<QPlainTextEdit *>(QStringLiteral("remoteMockRequestBody"))->toPlainText(), QStringLiteral("ping"));

        QTest::mouseClick(mocks->clearButton(), Qt::LeftButton);
        QVERIFY(QTest::qWaitFor([mocks] { return mocks->requests()->rowCount() == 0; }, 60000));
        QVERIFY(idle());

        QTest::mouseClick(mocks->deleteButton(), Qt::LeftButton);
        auto *confirm = mocks->findChild<ConfirmNameDialog *>();
        QVERIFY(confirm);
        QTest::mouseClick(confirm->acceptButton(), Qt::LeftButton);
        QVERIFY(QTest::qWaitFor([mocks] { return mocks->endpoints()->findItems(QStringLiteral("window-made"), Qt::MatchExactly).isEmpty(); }, 60000));
        QVERIFY(idle());
        QVERIFY2(mocks->error()->isHidden(), qPrintable(mocks->error()->text()));
    }

    // A production AWS profile: Move messages… of a dead-letter queue asks for its name, then the
    // message is back in its source queue and the task's status is shown.
    void awsProfile_production_moveAfterTypingTheName()
    {
        RelaydeskConnection direct({QStringLiteral("setup"), QUrl(m_url), {kKeyId, kSecret, {}}, kToken});
        const auto dlq = AWAIT(EntityRef, direct.createEntity(EntityKind::Queue, QStringLiteral("window-dlq"), {}, {}, reply));
        QVERIFY(dlq.ok);
        const QString dlqArn = AWAIT(EntityAttributes, direct.attributes(dlq.value, reply)).value.value(QStringLiteral("QueueArn"));
        const auto work = AWAIT(EntityRef, direct.createEntity(EntityKind::Queue, QStringLiteral("window-work"), {},
                                                               {{QStringLiteral("RedrivePolicy"),
                                                                 QStringLiteral(R"({"deadLetterTargetArn":"%1","maxReceiveCount":"1"})").arg(dlqArn)}},
                                                               reply));
        QVERIFY(work.ok);
        OutgoingMessage message;
        message.body = QStringLiteral("dead-lettered");
        QVERIFY(AWAIT(QString, direct.send(work.value, message, reply)).ok);
        QVERIFY(AWAIT(std::vector<MessageLine>, direct.poll(work.value, {1, 5}, reply)).ok);
        QVERIFY(AWAIT(BrokerClock, direct.advanceClock(6, reply)).ok);
        QVERIFY(AWAIT(std::vector<MessageLine>, direct.poll(work.value, {1, 5}, reply)).value.empty());   // dead-lettered

        m_window->connections()->setProduction(QStringLiteral("aws:shared-ok"), true);
        expand(QStringLiteral("aws:shared-ok"));
        RemoteEntityPage *page = open(QStringLiteral("aws:shared-ok"), QStringLiteral("window-dlq"));
        QVERIFY(page);
        QVERIFY(settled(page));
        QVERIFY(page->moveButton()->isEnabled());
        QTest::mouseClick(page->moveButton(), Qt::LeftButton);
        auto *confirm = page->findChild<ConfirmNameDialog *>();
        QVERIFY(confirm && confirm->isVisible());
        QVERIFY(!confirm->acceptButton()->isEnabled());   // production: the name first
        QTest::keyClicks(confirm->nameField(), QStringLiteral("window-dlq"));
        QVERIFY(confirm->acceptButton()->isEnabled());
        QTest::mouseClick(confirm->acceptButton(), Qt::LeftButton);
        QVERIFY(QTest::qWaitFor([page] { return !page->moveStatus()->isHidden() || !page->actionError()->isHidden(); }, 60000));
        QVERIFY2(page->actionError()->isHidden(), qPrintable(page->actionError()->text()));
        QVERIFY2(page->moveStatus()->text().startsWith(QStringLiteral("Move task ")), qPrintable(page->moveStatus()->text()));
        QVERIFY(QTest::qWaitFor([&] {
            return !AWAIT(std::vector<MessageLine>, direct.poll(work.value, {1, 5}, reply)).value.empty();
        }, 60000));
        // A topic keeps no messages: its page has no Move.
        QVERIFY(open(QStringLiteral("aws:shared-ok"), QStringLiteral("events"), true)->moveButton()->isHidden());
    }

    void serviceBus_production_attributesAndDeleteAfterTypingTheName()
    {
        ServiceBusConnection bus({QStringLiteral("fixture"), serviceBusString(kSasKey), QUrl(m_management), {}});
        QVERIFY(relaydesk::test::awaitCall<EntityRef>([&](BrokerConnection::Reply<EntityRef> reply) {
                    return bus.createEntity(EntityKind::ServiceBusQueue, QStringLiteral("invoices"), {},
                                            {{QStringLiteral("MaxDeliveryCount"), QStringLiteral("7")}}, reply);
                }).ok);
        addServiceBus(QStringLiteral("team-bus"), kSasKey, true);
        const QString id = QStringLiteral("window:team-bus");
        QCOMPARE(m_window->connections()->find(id)->kindWord, QStringLiteral("Service Bus"));
        const QModelIndex row = expand(id);
        QVERIFY(row.data(Qt::AccessibleTextRole).toString().endsWith(QStringLiteral("— production")));
        RemoteEntityPage *page = open(id, QStringLiteral("invoices"));
        QVERIFY(page);
        QVERIFY(settled(page));
        QVERIFY(m_window->windowTitle().contains(QStringLiteral("PRODUCTION")));
        QCOMPARE(page->parts()->tabText(page->parts()->currentIndex()), QStringLiteral("Messages"));
        page->parts()->setCurrentIndex(1);   // the Attributes tab, as a click on it
        QCOMPARE(page->parts()->tabText(1), QStringLiteral("Attributes"));
        QVERIFY(page->attributeTable()->isVisible());
        const auto attributes = page->attributeTable()->findItems(QStringLiteral("MaxDeliveryCount"), Qt::MatchExactly);
        QCOMPARE(attributes.size(), 1);
        QCOMPARE(page->attributeTable()->item(attributes[0]->row(), 1)->text(), QStringLiteral("7"));
        // Apply sends the changed property (the whole description goes back).
        page->attributeTable()->item(attributes[0]->row(), 1)->setText(QStringLiteral("8"));
        QTest::mouseClick(page->findChild<QPushButton *>(QStringLiteral("remoteApply")), Qt::LeftButton);
        QVERIFY(settled(page));
        // Then the page reads the attributes again: 8 is what it read.
        QVERIFY(QTest::qWaitFor([page] {
            const auto rows = page->attributeTable()->findItems(QStringLiteral("MaxDeliveryCount"), Qt::MatchExactly);
            return rows.size() == 1 && page->attributeTable()->item(rows[0]->row(), 1)->data(Qt::UserRole) == QStringLiteral("8");
        }, 60000));
        QVERIFY(settled(page));
        const auto applied = relaydesk::test::awaitCall<EntityAttributes>([&](BrokerConnection::Reply<EntityAttributes> reply) {
            return bus.attributes({EntityKind::ServiceBusQueue, QStringLiteral("invoices"), QStringLiteral("/invoices"), {}}, reply);
        });
        QCOMPARE(applied.value.value(QStringLiteral("MaxDeliveryCount")), QStringLiteral("8"));

        confirmByTypingTheName(page, page->deleteButton(), QStringLiteral("invoices"));
        QVERIFY2(page->actionError()->isHidden(), qPrintable(page->actionError()->text()));
        const auto gone = relaydesk::test::awaitCall<std::vector<EntitySummary>>([&](BrokerConnection::Reply<std::vector<EntitySummary>> reply) {
            return bus.listEntities(EntityKind::ServiceBusQueue, {}, reply);
        });
        QVERIFY(gone.ok);
        QVERIFY(std::none_of(gone.value.begin(), gone.value.end(), [](const EntitySummary &e) { return e.ref.name == "invoices"; }));
    }

    void serviceBus_wrongKey_theServicesWordsOnTheRow()
    {
        addServiceBus(QStringLiteral("wrong-bus"), QStringLiteral("bm90LXRoZS1rZXk="), false);
        const QModelIndex row = expand(QStringLiteral("window:wrong-bus"));
        const QModelIndex status = row.model()->index(0, 0, row);
        QVERIFY(status.data(EntityTreeModel::StatusRole).toBool());
        QVERIFY2(status.data().toString().startsWith(QStringLiteral("Service Bus 401 (HTTP 401): ")),
                 qPrintable(status.data().toString()));
        QVERIFY(!status.data().toString().contains(kSasKey));
    }

    void serviceBus_withoutConnectionString_theDialogSaysWhy()
    {
        AddConnectionDialog *dialog = openAddConnection();
        dialog->kindBox()->setCurrentIndex(2);
        dialog->nameEdit()->setText(QStringLiteral("no-string"));
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("connectionOk")), Qt::LeftButton);
        QVERIFY(dialog->isVisible());
        QVERIFY(dialog->nameError()->message().startsWith(QStringLiteral("A Service Bus connection needs its connection string")));
        dialog->connectionStringEdit()->setText(QStringLiteral("Endpoint=https://h/;SharedAccessKeyName=K;SharedAccessKey=v"));
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("connectionOk")), Qt::LeftButton);
        QVERIFY(dialog->isVisible());
        QCOMPARE(dialog->nameError()->message(), QStringLiteral("The connection string: Endpoint must be sb://HOST/."));
        QVERIFY(!m_window->connections()->find(QStringLiteral("window:no-string")));
        dialog->reject();
    }

    void serviceBus_pollCompleteDeadLetterResubmit()
    {
        RemoteEntityPage *page = serviceBusQueuePage(QStringLiteral("pay-bus"), QStringLiteral("payments"),
                                                     {QStringLiteral("paid"), QStringLiteral("unpaid")});
        QVERIFY(page);
        const QString already = QStringLiteral("The message is in the dead-letter queue already: Resubmit sends it back.");
        // At 800×600 the Messages part's controls show whole (where scrolled into sight).
        m_window->resize(800, 600);
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QCoreApplication::processEvents();
        for (QAbstractButton *control : page->messages()->findChildren<QAbstractButton *>()) {
            const QRect shown = control->visibleRegion().boundingRect();
            if (shown.isEmpty())
                continue;   // scrolled out of sight (up or down)
            QVERIFY2(shown.width() >= control->minimumSizeHint().width(),
                     qPrintable(QStringLiteral("%1: %2 of %3 px").arg(control->text()).arg(shown.width()).arg(control->minimumSizeHint().width())));
        }

        // Poll locks both; Abandon unlocks one, Complete removes the other.
        QVERIFY(pressAndWait(page, QStringLiteral("Poll")));
        QVERIFY2(page->messages()->error()->isHidden(), qPrintable(page->messages()->error()->text()));
        QCOMPARE(messageColumn(page, 1), (QStringList{QStringLiteral("paid"), QStringLiteral("unpaid")}));
        QVERIFY(!press(page, QAccessible::PushButton, QStringLiteral("Complete")));   // nothing selected yet
        const int firstCount = messageColumn(page, 3).back().toInt();
        QVERIFY(selectMessage(page, QStringLiteral("unpaid")));
        QVERIFY(pressAndWait(page, QStringLiteral("Abandon")));
        QCOMPARE(messageColumn(page, 1), QStringList{QStringLiteral("paid")});
        QVERIFY(selectMessage(page, QStringLiteral("paid")));
        QVERIFY(pressAndWait(page, QStringLiteral("Complete")));
        QVERIFY(messageColumn(page, 1).isEmpty());
        // The abandoned one is received again, its delivery counted; the completed one is gone.
        QVERIFY(pressAndWait(page, QStringLiteral("Poll")));
        QCOMPARE(messageColumn(page, 1), QStringList{QStringLiteral("unpaid")});
        QCOMPARE(messageColumn(page, 3), QStringList{QString::number(firstCount + 1)});

        // Dead-letter it with a reason.
        QVERIFY(selectMessage(page, QStringLiteral("unpaid")));
        accessibleNamed(page, QAccessible::EditableText, QStringLiteral("Reason"))
            ->setText(QAccessible::Value, QStringLiteral("card declined"));
        QVERIFY(pressAndWait(page, QStringLiteral("Dead-letter")));
        QVERIFY2(page->messages()->error()->isHidden(), qPrintable(page->messages()->error()->text()));
        QVERIFY(messageColumn(page, 1).isEmpty());
        QVERIFY(pressAndWait(page, QStringLiteral("Peek")));
        QVERIFY(messageColumn(page, 1).isEmpty());   // both left the queue

        // The dead-letter queue has it, with its reason; poll it and resubmit it.
        QVERIFY(press(page, QAccessible::CheckBox, QStringLiteral("Dead-letter queue")));
        QVERIFY(pressAndWait(page, QStringLiteral("Peek")));
        QCOMPARE(messageColumn(page, 1), QStringList{QStringLiteral("unpaid")});
        QVERIFY2(messageColumn(page, 2).front().endsWith(QStringLiteral("dead-lettered: card declined")),
                 qPrintable(messageColumn(page, 2).front()));
        QVERIFY(pressAndWait(page, QStringLiteral("Poll")));
        QVERIFY(selectMessage(page, QStringLiteral("unpaid")));
        QAccessibleInterface *deadLetter = accessibleNamed(page, QAccessible::PushButton, QStringLiteral("Dead-letter"));
        QVERIFY(deadLetter->state().disabled);
        QCOMPARE(deadLetter->text(QAccessible::Description), already);
        QVERIFY(pressAndWait(page, QStringLiteral("Resubmit")));
        QVERIFY2(page->messages()->error()->isHidden(), qPrintable(page->messages()->error()->text()));
        QVERIFY(messageColumn(page, 1).isEmpty());
        QVERIFY(pressAndWait(page, QStringLiteral("Peek")));
        QVERIFY(messageColumn(page, 1).isEmpty());   // the dead-letter queue is empty again

        // Back in the queue.
        QVERIFY(press(page, QAccessible::CheckBox, QStringLiteral("Dead-letter queue")));
        QVERIFY(pressAndWait(page, QStringLiteral("Peek")));
        QCOMPARE(messageColumn(page, 1), QStringList{QStringLiteral("unpaid")});
    }

    void serviceBus_lockLost_theServicesWordsBesideComplete()
    {
        RemoteEntityPage *page = serviceBusQueuePage(QStringLiteral("late-bus"), QStringLiteral("refunds"), {QStringLiteral("late")});
        QVERIFY(page);
        QVERIFY(pressAndWait(page, QStringLiteral("Poll")));
        QVERIFY(selectMessage(page, QStringLiteral("late")));
        // The lock (the queue's LockDuration, a minute) ends on the broker's virtual clock.
        native("POST", QStringLiteral("clock/advance"), {{QStringLiteral("seconds"), 600}});
        QVERIFY(pressAndWait(page, QStringLiteral("Complete")));
        QLabel *error = page->messages()->error();
        QVERIFY(!error->isHidden());
        QVERIFY2(error->text().startsWith(QStringLiteral("Service Bus com.microsoft:message-lock-lost")), qPrintable(error->text()));
        QVERIFY(error->accessibleName().startsWith(QStringLiteral("Error: ")));
        QCOMPARE(messageColumn(page, 1), QStringList{QStringLiteral("late")});   // it stays
    }

    void serviceBus_caFileThatCannotBeRead_theDialogSaysWhy()
    {
        AddConnectionDialog *dialog = openAddConnection();
        dialog->kindBox()->setCurrentIndex(2);
        QVERIFY(dialog->caFileEdit()->isVisibleTo(dialog));
        QCOMPARE(dialog->caFileEdit()->accessibleName(), QStringLiteral("CA file"));
        dialog->nameEdit()->setText(QStringLiteral("ca-bus"));
        dialog->connectionStringEdit()->setText(serviceBusString(kSasKey));
        const QString missing = m_settings->filePath(QStringLiteral("no-such-ca.pem"));
        dialog->caFileEdit()->setText(missing);
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("connectionOk")), Qt::LeftButton);
        QVERIFY(dialog->isVisible());
        QCOMPARE(dialog->nameError()->message(),
                 QStringLiteral("The CA file %1 cannot be read: choose a PEM file, or leave it empty.").arg(missing));
        QVERIFY(!m_window->connections()->find(QStringLiteral("window:ca-bus")));
        // A readable one is kept in the settings and shown again by Edit Connection….
        const QString ca = m_settings->filePath(QStringLiteral("ca.pem"));
        writeFile(ca, QStringLiteral("-----BEGIN CERTIFICATE-----\n"));
        dialog->caFileEdit()->setText(ca);
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("connectionOk")), Qt::LeftButton);
        QVERIFY2(dialog->isHidden(), qPrintable(dialog->nameError()->message()));
        QCOMPARE(m_window->connections()->settingsOf(QStringLiteral("window:ca-bus")).caFile, ca);
    }

    void zaqar_production_sendPeekPurgeAfterTypingTheName()
    {
        ZaqarConnection fixture({QStringLiteral("fixture"), QUrl(m_url), QStringLiteral("window-project"), kToken, {}});
        QVERIFY(relaydesk::test::awaitCall<EntityRef>([&](BrokerConnection::Reply<EntityRef> reply) {
                    return fixture.createEntity(EntityKind::ZaqarQueue, QStringLiteral("jobs"), {}, {}, reply);
                }).ok);
        AddConnectionDialog *dialog = openAddConnection();
        dialog->kindBox()->setCurrentIndex(3);   // OpenStack Zaqar
        QVERIFY(dialog->projectIdEdit()->isVisibleTo(dialog));
        QVERIFY(dialog->keystoneTokenEdit()->isVisibleTo(dialog));
        QVERIFY(!dialog->connectionStringEdit()->isVisibleTo(dialog));
        QVERIFY(!dialog->tokenEdit()->isVisibleTo(dialog));
        dialog->nameEdit()->setText(QStringLiteral("team-zaqar"));
        dialog->urlEdit()->setText(m_url);
        dialog->projectIdEdit()->setText(QStringLiteral("window-project"));
        dialog->keystoneTokenEdit()->setText(kToken);
        dialog->productionBox()->setChecked(true);
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("connectionOk")), Qt::LeftButton);
        QVERIFY2(dialog->isHidden(), qPrintable(dialog->nameError()->message()));

        const QString id = QStringLiteral("window:team-zaqar");
        QCOMPARE(m_window->connections()->find(id)->kindWord, QStringLiteral("Zaqar"));
        RemoteEntityPage *page = openAndSend(id, QStringLiteral("jobs"), QStringLiteral("{\"job\": 1}"));
        QVERIFY(page);
        QVERIFY2(page->actionError()->isHidden(), qPrintable(page->actionError()->text()));
        RemoteMessagesPanel *messages = page->messages();
        QVERIFY(!messages->polls());   // Zaqar lists messages without claiming them
        QTest::mouseClick(messages->lookButton(), Qt::LeftButton);
        QVERIFY(settled(page));
        QVERIFY2(messages->error()->isHidden(), qPrintable(messages->error()->text()));
        QCOMPARE(messages->table()->rowCount(), 1);

        confirmByTypingTheName(page, page->purgeButton(), QStringLiteral("jobs"));
        QVERIFY2(page->actionError()->isHidden(), qPrintable(page->actionError()->text()));
        QTest::mouseClick(messages->lookButton(), Qt::LeftButton);
        QVERIFY(settled(page));
        QCOMPARE(messages->table()->rowCount(), 0);
    }

    // Keystone credentials: the token the (fake) Keystone gives is one serve
    // accepts; the project by name, whose id Keystone gives is X-Project-ID.
    void zaqar_keystoneCredentials_listOpenSend()
    {
        relaydesk::test::FakeKeystone keystone(QStringLiteral("alice"), QStringLiteral("keystone-secret"), kToken);
        ZaqarConnection fixture({QStringLiteral("fixture"), QUrl(m_url), QStringLiteral("window-keystone"), kToken, {}});
        const auto made = relaydesk::test::awaitCall<EntityRef>([&](BrokerConnection::Reply<EntityRef> reply) {
            return fixture.createEntity(EntityKind::ZaqarQueue, QStringLiteral("keyed"), {}, {}, reply);
        });
        QVERIFY(made.ok);
        addKeystoneZaqar(QStringLiteral("keystone-zaqar"), keystone.url(), QStringLiteral("keystone-secret"));

        const QString id = QStringLiteral("window:keystone-zaqar");
        RemoteEntityPage *page = openAndSend(id, QStringLiteral("keyed"), QStringLiteral("{\"job\": 2}"));
        QVERIFY(page);
        QVERIFY2(page->actionError()->isHidden(), qPrintable(page->actionError()->text()));
        QCOMPARE(keystone.answered(), 1);   // one token for the listing, the page and the send
        const auto stats = relaydesk::test::awaitCall<EntityAttributes>([&](BrokerConnection::Reply<EntityAttributes> reply) {
            return fixture.attributes(made.value, reply);
        });
        QCOMPARE(stats.value.value(QStringLiteral("messages.total")), QStringLiteral("1"));

        // Edit Connection… brings the credentials back, the password only as kept.
        connectionAction(id, QStringLiteral("editConnectionAction"))->trigger();
        auto *edit = m_window->findChild<AddConnectionDialog *>();
        QVERIFY(edit);
        QCOMPARE(edit->zaqarAuthBox()->currentText(), QStringLiteral("Keystone credentials"));
        QCOMPARE(edit->keystoneUrlEdit()->text(), keystone.url());
        QCOMPARE(edit->keystoneUserEdit()->text(), QStringLiteral("alice"));
        QCOMPARE(edit->keystoneUserDomainEdit()->text(), QStringLiteral("Default"));
        QCOMPARE(edit->keystoneProjectEdit()->text(), QStringLiteral("window-keystone"));
        QCOMPARE(edit->keystoneProjectDomainEdit()->text(), QStringLiteral("Default"));
        QVERIFY(edit->keystonePasswordEdit()->text().isEmpty());
        QVERIFY(edit->keystonePasswordEdit()->placeholderText().contains(QStringLiteral("kept")));
        QVERIFY(!edit->keystoneTokenEdit()->isVisibleTo(edit));
        edit->reject();
    }

    void zaqar_keystoneWrongPassword_keystonesWordsOnTheRow()
    {
        relaydesk::test::FakeKeystone keystone(QStringLiteral("alice"), QStringLiteral("keystone-secret"), kToken);
        addKeystoneZaqar(QStringLiteral("keystone-wrong"), keystone.url(), QStringLiteral("not-the-password"));
        const QModelIndex row = expand(QStringLiteral("window:keystone-wrong"));
        const QModelIndex status = row.model()->index(0, 0, row);
        QVERIFY(status.data(EntityTreeModel::StatusRole).toBool());
        QCOMPARE(status.data().toString(), QStringLiteral("Keystone Unauthorized (HTTP 401): The request you have made "
                                                          "requires authentication."));
    }

    // A Keystone URL without http(s):// and a host, or no password: refused under the name, nothing added.
    void zaqar_keystoneBadInput_refusedInTheDialog()
    {
        AddConnectionDialog *dialog = openAddConnection();
        dialog->kindBox()->setCurrentIndex(3);   // OpenStack Zaqar
        dialog->zaqarAuthBox()->setCurrentIndex(2);   // Keystone credentials
        dialog->nameEdit()->setText(QStringLiteral("keystone-bad"));
        dialog->urlEdit()->setText(m_url);
        dialog->keystoneUrlEdit()->setText(QStringLiteral("keystone:5000/v3"));
        dialog->keystoneUserEdit()->setText(QStringLiteral("alice"));
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("connectionOk")), Qt::LeftButton);
        QCOMPARE(dialog->nameError()->message(),
                 QStringLiteral("The Keystone URL must be http:// or https:// with a host, as http://keystone:5000/v3."));
        dialog->keystoneUrlEdit()->setText(QStringLiteral("http://keystone:5000/v3"));
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("connectionOk")), Qt::LeftButton);
        QCOMPARE(dialog->nameError()->message(), QStringLiteral("Keystone credentials need a user name and a password."));
        QVERIFY(dialog->isVisible());
        QVERIFY(!m_window->connections()->find(QStringLiteral("window:keystone-bad")));
        dialog->reject();
    }

private:
    // Expands connection `id`, opens its queue `queue` and sends `body` from
    // the page (the page; null when it did not open or a call did not settle).
    RemoteEntityPage *openAndSend(const QString &id, const QString &queue, const QString &body)
    {
        expand(id);
        RemoteEntityPage *page = open(id, queue);
        if (!page || !settled(page))
            return nullptr;
        page->bodyEdit()->setPlainText(body);
        QTest::mouseClick(page->sendButton(), Qt::LeftButton);
        return settled(page) ? page : nullptr;
    }

    // Adds a Zaqar connection with Keystone credentials (user alice of Default,
    // project window-keystone of Default) through the dialog, only those rows shown.
    void addKeystoneZaqar(const QString &name, const QString &keystoneUrl, const QString &password)
    {
        AddConnectionDialog *dialog = openAddConnection();
        dialog->kindBox()->setCurrentIndex(3);   // OpenStack Zaqar
        dialog->zaqarAuthBox()->setCurrentIndex(2);   // Keystone credentials
        QVERIFY(!dialog->keystoneTokenEdit()->isVisibleTo(dialog));
        QVERIFY(dialog->keystonePasswordEdit()->isVisibleTo(dialog));
        QVERIFY(dialog->keystoneProjectDomainEdit()->isVisibleTo(dialog));
        dialog->nameEdit()->setText(name);
        dialog->urlEdit()->setText(m_url);
        dialog->keystoneUrlEdit()->setText(keystoneUrl);
        dialog->keystoneUserEdit()->setText(QStringLiteral("alice"));
        dialog->keystoneUserDomainEdit()->setText(QStringLiteral("Default"));
        dialog->keystoneProjectEdit()->setText(QStringLiteral("window-keystone"));
        dialog->keystoneProjectDomainEdit()->setText(QStringLiteral("Default"));
        dialog->keystonePasswordEdit()->setText(password);
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("connectionOk")), Qt::LeftButton);
        QVERIFY2(dialog->isHidden(), qPrintable(dialog->nameError()->message()));
    }

    // The connection's row, expanded in the tree as a click would, once listed.
    QModelIndex expand(const QString &id)
    {
        EntityTreeModel *model = m_window->entityModel();
        const QModelIndex row = model->connectionIndex(id);
        if (!row.isValid())
            return {};
        QSignalSpy loaded(model, &EntityTreeModel::connectionLoaded);
        QTreeView *tree = m_window->entityPanel()->treeView();
        auto *proxy = qobject_cast<QAbstractProxyModel *>(tree->model());
        tree->expand(proxy->mapFromSource(row));
        [&] { QVERIFY(loaded.wait(60000)); }();
        return model->connectionIndex(id);
    }

    // The Connection menu's action `name` with connection `id` current in the tree (null when absent).
    QAction *connectionAction(const QString &id, const QString &name)
    {
        QTreeView *tree = m_window->entityPanel()->treeView();
        auto *proxy = qobject_cast<QAbstractProxyModel *>(tree->model());
        tree->setCurrentIndex(proxy->mapFromSource(m_window->entityModel()->connectionIndex(id)));
        auto *menu = m_window->findChild<QMenu *>(QStringLiteral("connectionMenu"));
        emit menu->aboutToShow();
        for (QAction *action : menu->actions())
            if (action->objectName() == name)
                return action;
        return nullptr;
    }

    // Connection ▸ New Queue… with the connection current in the tree, the name typed, Create pressed.
    bool createFromTheMenu(const QString &id, const QString &name)
    {
        QTreeView *tree = m_window->entityPanel()->treeView();
        auto *proxy = qobject_cast<QAbstractProxyModel *>(tree->model());
        tree->setCurrentIndex(proxy->mapFromSource(m_window->entityModel()->connectionIndex(id)));
        auto *menu = m_window->findChild<QMenu *>(QStringLiteral("connectionMenu"));
        emit menu->aboutToShow();
        QAction *create = nullptr;
        for (QAction *action : menu->actions())
            if (action->objectName() == QStringLiteral("newRemoteEntityAction%1").arg(static_cast<int>(EntityKind::Queue)))
                create = action;
        if (!create || create->text() != QStringLiteral("&New Queue…"))
            return false;
        create->trigger();
        QInputDialog *ask = nullptr;   // the one open (an earlier one may await its deletion)
        for (QInputDialog *dialog : m_window->findChildren<QInputDialog *>(QStringLiteral("newRemoteEntityDialog")))
            if (dialog->isVisible())
                ask = dialog;
        if (!ask)
            return false;
        ask->setTextValue(name);
        ask->accept();
        return true;
    }

    RemoteEntityPage *open(const QString &id, const QString &name, bool topic = false)
    {
        RemoteEntity entity;
        const QModelIndex row = m_window->entityModel()->connectionIndex(id);
        for (int i = 0; i < row.model()->rowCount(row); ++i) {
            const auto candidate = qvariant_cast<RemoteEntity>(row.model()->index(i, 0, row).data(EntityTreeModel::RemoteEntityRole));
            if (candidate.name == name && candidate.isTopic() == topic)
                entity = candidate;
        }
        if (entity.isNull() || !m_window->entityPanel()->selectRemote(entity))
            return nullptr;
        return m_window->remotePage();
    }

    // A native API request with the token: what the test sets up on the broker.
    QJsonObject native(const QByteArray &method, const QString &path, const QJsonObject &body)
    {
        QNetworkRequest request(QUrl(m_url + QStringLiteral("/api/v1/") + path));
        request.setRawHeader("Authorization", "Bearer " + kToken.toUtf8());
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        std::unique_ptr<QNetworkReply> reply(m_network.sendCustomRequest(request, method, QJsonDocument(body).toJson()));
        QSignalSpy done(reply.get(), &QNetworkReply::finished);
        if (!reply->isFinished())
            done.wait(30000);
        return QJsonDocument::fromJson(reply->readAll()).object();
    }

    // Add Connection… ▸ Another Relaydesk with the broker's keys and its bearer token, OK pressed.
    void addRelaydesk(const QString &name)
    {
        AddConnectionDialog *dialog = openAddConnection();
        dialog->kindBox()->setCurrentIndex(1);
        dialog->nameEdit()->setText(name);
        dialog->urlEdit()->setText(m_url);
        dialog->accessKeyEdit()->setText(kKeyId);
        dialog->secretEdit()->setText(kSecret);
        dialog->tokenEdit()->setText(kToken);
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("connectionOk")), Qt::LeftButton);
    }

    AddConnectionDialog *openAddConnection()
    {
        m_window->findChild<QAction *>(QStringLiteral("addConnectionAction"))->trigger();
        auto *dialog = m_window->findChild<AddConnectionDialog *>();
        return dialog;
    }

    QString serviceBusString(const QString &key) const
    {
        return QStringLiteral("Endpoint=sb://%1:%3/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=%2;"
                              "UseDevelopmentEmulator=true")
            .arg(QUrl(m_management).host(), key)
            .arg(m_amqp.port());
    }

    // A Service Bus queue made with `bodies` sent to it (directly, over AMQP), then
    // the connection `connection` added in the window and the queue's page open
    // and read; null when any step fails.
    RemoteEntityPage *serviceBusQueuePage(const QString &connection, const QString &name, const QStringList &bodies)
    {
        ServiceBusConnection bus({QStringLiteral("fixture"), serviceBusString(kSasKey), QUrl(m_management), {}});
        const auto queue = AWAIT(EntityRef, bus.createEntity(EntityKind::ServiceBusQueue, name, {}, {}, reply));
        if (!queue.ok)
            return nullptr;
        for (const QString &body : bodies) {
            OutgoingMessage message;
            message.body = body;
            if (!AWAIT(QString, bus.send(queue.value, message, reply)).ok)
                return nullptr;
        }
        addServiceBus(connection, kSasKey, false);
        expand(QStringLiteral("window:") + connection);
        RemoteEntityPage *page = open(QStringLiteral("window:") + connection, name);
        return page && settled(page) ? page : nullptr;
    }

    // Fills the dialog for a Service Bus namespace and presses OK.
    void addServiceBus(const QString &name, const QString &key, bool production)
    {
        AddConnectionDialog *dialog = openAddConnection();
        dialog->kindBox()->setCurrentIndex(2);   // Azure Service Bus namespace
        QVERIFY(dialog->connectionStringEdit()->isVisibleTo(dialog));
        QVERIFY(!dialog->regionEdit()->isVisibleTo(dialog));   // only the kind's rows show
        QVERIFY(!dialog->accessKeyEdit()->isVisibleTo(dialog));
        QVERIFY(!dialog->projectIdEdit()->isVisibleTo(dialog));
        dialog->nameEdit()->setText(name);
        dialog->connectionStringEdit()->setText(serviceBusString(key));
        dialog->urlEdit()->setText(m_management);
        dialog->productionBox()->setChecked(production);
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("connectionOk")), Qt::LeftButton);
        QVERIFY2(dialog->isHidden(), qPrintable(dialog->nameError()->message()));
    }

    QTemporaryDir m_dir;
    std::unique_ptr<QTemporaryDir> m_settings;
    relaydesk::test::ServerProcess m_server;
    QString m_url;
    QString m_management;
    QUrl m_amqp;
    std::unique_ptr<MainWindow> m_window;
    QNetworkAccessManager m_network;
};

RELAYDESK_TEST_MAIN(RemoteConnectionWindowTest)
#include "remote_connection_window_test.moc"
