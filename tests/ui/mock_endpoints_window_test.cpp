// SPDX-License-Identifier: MIT
// Tools ▸ Mock Endpoints… against a real broker (BrokerHost: real
// MockEndpoints on the broker clock, virtual; requests over real HTTP on
// loopback): create, a bad script or name refused under its field with the
// broker's words and nothing changed, received requests listed with their
// headers and body (JSON pretty-printed), following new requests live, clear,
// delete with confirmation; the two models change rows in place.
#include "window_test_support.h"

#include "engine/broker_engine.h"
#include "models/message_text.h"
#include "models/mock_endpoint_list_model.h"
#include "models/mock_request_list_model.h"
#include "mock/mock_endpoints.h"
#include "broker/deliveries/mock_script.h"
#include "views/main_window.h"
#include "views/mock_endpoints_window.h"
#include "views/mock_request_viewer.h"
#include "support/test_main.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>

using namespace relaydesk;
using namespace relaydesk::testing;
using namespace std::chrono_literals;

namespace {

constexpr int kWait = 10000; // ms; a bound, not a pace: QTRY returns as soon as it holds

// Sends one request over real HTTP and waits for its answer; the status.
int sendTo(const QString &url, const QByteArray &verb, const QByteArray &body,
           const QList<QPair<QByteArray, QByteArray>> &headers = {})
{
    QNetworkAccessManager manager;
    QNetworkRequest request{QUrl(url)};
    for (const auto &[name, value] : headers)
        request.setRawHeader(name, value);
    QNetworkReply *reply = manager.sendCustomRequest(request, verb, body);
    QSignalSpy finished(reply, &QNetworkReply::finished);
    if (!reply->isFinished() && !finished.wait(kWait))
        return 0;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    reply->deleteLater();
    return status;
}

MockRequest numbered(std::uint64_t number)
{
    MockRequest request;
    request.method = "POST";
    request.target = "/_mock/a";
    request.number = number;
    request.received = fromEpochMilliseconds(1'767'225'600'000LL + static_cast<std::int64_t>(number) * 1000);
    return request;
}

std::vector<MockRequest> numbers(std::uint64_t first, std::uint64_t last)
{
    std::vector<MockRequest> requests;
    for (std::uint64_t n = first; n <= last; ++n)
        requests.push_back(numbered(n));
    return requests;
}

} // namespace

class MockEndpointsWindowTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_settingsDir;
    std::unique_ptr<TestBroker> m_broker;
    std::unique_ptr<MockEndpointsWindow> m_window;

    MockEndpoints &mocks() { return m_broker->host->mocks(); }
    QString endpoint() const { return m_broker->host->endpointUrl(); }
    template <class T> T *child(const char *name) const
    {
        T *found = m_window->findChild<T *>(QLatin1String(name));
        if (!found)
            qFatal("no %s", name);
        return found;
    }
    QTableView *endpointTable() const { return child<QTableView>("mockEndpointTable"); }
    QTableView *requestTable() const { return child<QTableView>("mockRequestTable"); }
    QString cell(QTableView *table, int row, int column) const
    {
        return table->model()->index(row, column).data().toString();
    }
    void saveForm(const QString &name, const QString &script)
    {
        child<QLineEdit>("mockName")->setText(name);
        child<QLineEdit>("mockScript")->setText(script);
        QTest::mouseClick(child<QPushButton>("saveMock"), Qt::LeftButton);
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settingsDir.path());
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settingsDir.path());
    }

    void init()
    {
        m_broker = std::make_unique<TestBroker>();
        QVERIFY(m_broker->start());
        m_window = std::make_unique<MockEndpointsWindow>(mocks(), endpoint());
        new QAbstractItemModelTester(endpointTable()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest,
                                     m_window.get());
        new QAbstractItemModelTester(requestTable()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest,
                                     m_window.get());
    }

    void cleanup()
    {
        m_window.reset();
        m_broker.reset();
    }

    void create_addsEndpointWithItsUrl()
    {
        QCOMPARE(child<QPushButton>("saveMock")->text(), QStringLiteral("&Create"));
        saveForm(QStringLiteral("orders-hook"), QStringLiteral("503 x 3, then 200"));
        const auto created = mocks().find("orders-hook");
        QVERIFY(created);
        QCOMPARE(created->script, std::string("503 x 3, then 200"));
        QCOMPARE(endpointTable()->model()->rowCount(), 1);
        QCOMPARE(cell(endpointTable(), 0, MockEndpointListModel::NameColumn), QStringLiteral("orders-hook"));
        QCOMPARE(cell(endpointTable(), 0, MockEndpointListModel::UrlColumn), endpoint() + QStringLiteral("/_mock/orders-hook"));
        QCOMPARE(cell(endpointTable(), 0, MockEndpointListModel::ScriptColumn), QStringLiteral("503 x 3, then 200"));
        QCOMPARE(cell(endpointTable(), 0, MockEndpointListModel::RequestsColumn), QStringLiteral("0"));
        QCOMPARE(m_window->selectedEndpoint(), QStringLiteral("orders-hook"));
        QCOMPARE(child<QPushButton>("saveMock")->text(), QStringLiteral("&Save Script"));
        QVERIFY(child<QLabel>("mockStatus")->text().contains(QStringLiteral("Created orders-hook")));
        // The endpoint answers by its script over real HTTP.
        QCOMPARE(sendTo(endpoint() + QStringLiteral("/_mock/orders-hook"), "POST", "{}"), 503);
    }

    void badScript_showsTheBrokersWordsUnderTheField_andChangesNothing()
    {
        QVERIFY(mocks().set("audit", "200").ok());
        QVERIFY(m_window->selectEndpoint(QStringLiteral("audit")));
        QCOMPARE(child<QLineEdit>("mockScript")->text(), QStringLiteral("200"));
        const std::uint64_t revision = mocks().revision();
        saveForm(QStringLiteral("audit"), QStringLiteral("503 x"));
        auto *scriptError = child<QLabel>("mockScriptError");
        QVERIFY(scriptError->isVisibleTo(m_window.get()));
        const std::string expected = parseMockScript("503 x").error().message;
        QCOMPARE(scriptError->text(), QStringLiteral("\u26a0 ") + QString::fromStdString(expected));
        QVERIFY(!child<QLabel>("mockNameError")->isVisibleTo(m_window.get()));
        QCOMPARE(mocks().find("audit")->script, std::string("200"));
        QCOMPARE(mocks().revision(), revision);
        // Typing in the script takes the error away.
        QTest::keyClicks(child<QLineEdit>("mockScript"), QStringLiteral("2"));
        QVERIFY(!scriptError->isVisibleTo(m_window.get()));

        saveForm(QStringLiteral("bad name!"), QStringLiteral("200"));
        auto *nameError = child<QLabel>("mockNameError");
        QVERIFY(nameError->isVisibleTo(m_window.get()));
        QVERIFY(nameError->text().contains(QStringLiteral("mock endpoint name")));
        QCOMPARE(mocks().list().size(), std::size_t(1));
        QCOMPARE(endpointTable()->model()->rowCount(), 1);
    }

    void receivedRequests_areListedWithHeadersAndBody()
    {
        QVERIFY(mocks().set("hooks", "503, 200").ok());
        const ClockTime first = m_broker->host->engine().clock().now();
        QCOMPARE(sendTo(endpoint() + QStringLiteral("/_mock/hooks/inbox?tenant=7"), "POST", R"({"order":1,"items":["book"]})",
                        {{"Content-Type", "application/json"}, {"X-Relaydesk-Test", "first"}}),
                 503);
        QVERIFY(m_broker->host->engine().advanceClockAndWait(5s).ok());
        QCOMPARE(sendTo(endpoint() + QStringLiteral("/_mock/hooks"), "PUT", "plain words"), 200);

        QVERIFY(m_window->selectEndpoint(QStringLiteral("hooks")));
        QTableView *table = requestTable();
        QCOMPARE(table->model()->rowCount(), 2);
        QCOMPARE(cell(table, 0, MockRequestListModel::NumberColumn), QStringLiteral("1"));
        QCOMPARE(cell(table, 0, MockRequestListModel::TimeColumn), message_text::timeText(first));
        QCOMPARE(cell(table, 0, MockRequestListModel::MethodColumn), QStringLiteral("POST"));
        QCOMPARE(cell(table, 0, MockRequestListModel::TargetColumn), QStringLiteral("/_mock/hooks/inbox?tenant=7"));
        QCOMPARE(cell(table, 0, MockRequestListModel::AnswerColumn), QStringLiteral("503"));
        QCOMPARE(cell(table, 1, MockRequestListModel::TimeColumn), message_text::timeText(first + 5s));
        QCOMPARE(cell(table, 1, MockRequestListModel::MethodColumn), QStringLiteral("PUT"));
        QCOMPARE(cell(table, 1, MockRequestListModel::AnswerColumn), QStringLiteral("200"));
        QCOMPARE(cell(endpointTable(), 0, MockEndpointListModel::RequestsColumn), QStringLiteral("2"));
        QCOMPARE(child<QLabel>("requestsTitle")->text(), QStringLiteral("Requests to hooks: 2 since its script was set"));

        table->selectRow(0);
        auto *headers = child<QPlainTextEdit>("requestHeaders");
        auto *body = child<QPlainTextEdit>("requestBody");
        QVERIFY(headers->toPlainText().contains(QStringLiteral("X-Relaydesk-Test: first\n")));
        QVERIFY(headers->toPlainText().contains(QStringLiteral("Content-Type: application/json\n"), Qt::CaseInsensitive));
        QVERIFY(body->toPlainText().contains(QStringLiteral("\"items\": [\n")));   // pretty-printed
        QCOMPARE(body->toPlainText(), message_text::viewerBody(R"({"order":1,"items":["book"]})"));
        QVERIFY(child<QLabel>("requestTitle")->text().startsWith(QStringLiteral("#1 · POST /_mock/hooks/inbox?tenant=7 · ")));
        QVERIFY(child<QLabel>("requestTitle")->text().endsWith(QStringLiteral("answered 503")));
        table->selectRow(1);
        QCOMPARE(body->toPlainText(), QStringLiteral("plain words"));
    }

    void newRequests_arriveLive_whileTheWindowIsShown()
    {
        QVERIFY(mocks().set("live", "200").ok());
        m_window->show();
        QVERIFY(m_window->selectEndpoint(QStringLiteral("live")));
        QSignalSpy reset(requestTable()->model(), &QAbstractItemModel::modelReset);
        QSignalSpy inserted(requestTable()->model(), &QAbstractItemModel::rowsInserted);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(sendTo(endpoint() + QStringLiteral("/_mock/live"), "POST", QByteArray::number(i)), 200);
        // No call from the test: the window's own timer reads the change.
        QTRY_COMPARE_WITH_TIMEOUT(requestTable()->model()->rowCount(), 3, kWait);
        QTRY_COMPARE_WITH_TIMEOUT(cell(endpointTable(), 0, MockEndpointListModel::RequestsColumn), QStringLiteral("3"), kWait);
        QCOMPARE(reset.count(), 0);
        QVERIFY(inserted.count() >= 1);
        requestTable()->selectRow(1);
        QCOMPARE(sendTo(endpoint() + QStringLiteral("/_mock/live"), "POST", "3"), 200);
        QTRY_COMPARE_WITH_TIMEOUT(requestTable()->model()->rowCount(), 4, kWait);
        QCOMPARE(requestTable()->selectionModel()->selectedRows().value(0).row(), 1); // the selection stays
        QCOMPARE(child<QPlainTextEdit>("requestBody")->toPlainText(), QStringLiteral("1"));
    }

    void clear_forgetsTheRequests_andTheScriptGoesOn()
    {
        QVERIFY(mocks().set("once", "500, 200").ok());
        QCOMPARE(sendTo(endpoint() + QStringLiteral("/_mock/once"), "GET", {}), 500);
        QVERIFY(m_window->selectEndpoint(QStringLiteral("once")));
        QCOMPARE(requestTable()->model()->rowCount(), 1);
        QTest::mouseClick(child<QPushButton>("clearRequests"), Qt::LeftButton);
        QCOMPARE(requestTable()->model()->rowCount(), 0);
        QVERIFY(mocks().received("once")->empty());
        QCOMPARE(child<QLabel>("requestsTitle")->text(), QStringLiteral("Requests to once: 1 since its script was set · 0 kept"));
        QCOMPARE(sendTo(endpoint() + QStringLiteral("/_mock/once"), "GET", {}), 200);
        m_window->refresh();
        QCOMPARE(cell(requestTable(), 0, MockRequestListModel::NumberColumn), QStringLiteral("2"));
    }

    void delete_asksFirst_thenTheEndpointAnswers404()
    {
        QVERIFY(mocks().set("doomed", "200").ok());
        QVERIFY(mocks().set("kept", "200").ok());
        QVERIFY(m_window->selectEndpoint(QStringLiteral("doomed")));
        QTest::mouseClick(child<QPushButton>("deleteMock"), Qt::LeftButton);
        auto *box = child<QMessageBox>("deleteMockConfirmation");
        QCOMPARE(box->text(), QStringLiteral("Delete mock endpoint doomed?"));
        box->reject();
        QVERIFY(mocks().find("doomed"));
        QTRY_VERIFY_WITH_TIMEOUT(!m_window->findChild<QMessageBox *>(QStringLiteral("deleteMockConfirmation")), kWait);

        QTest::mouseClick(child<QPushButton>("deleteMock"), Qt::LeftButton);
        box = child<QMessageBox>("deleteMockConfirmation");
        QTest::mouseClick(box->findChild<QPushButton *>(QStringLiteral("confirmDeleteMock")), Qt::LeftButton);
        QVERIFY(!mocks().find("doomed"));
        QCOMPARE(endpointTable()->model()->rowCount(), 1);
        QCOMPARE(cell(endpointTable(), 0, MockEndpointListModel::NameColumn), QStringLiteral("kept"));
        QVERIFY(m_window->selectedEndpoint().isEmpty());
        QVERIFY(child<QLineEdit>("mockName")->text().isEmpty());
        QVERIFY(!child<QPushButton>("deleteMock")->isEnabled());
        QCOMPARE(sendTo(endpoint() + QStringLiteral("/_mock/doomed"), "GET", {}), 404);
    }

    void controls_haveAccessibleNames()
    {
        QVERIFY(mocks().set("named", "200").ok());
        QVERIFY(m_window->selectEndpoint(QStringLiteral("named")));
        QCOMPARE(child<QLineEdit>("mockName")->accessibleName(), QStringLiteral("Name"));
        QCOMPARE(child<QLineEdit>("mockScript")->accessibleName(), QStringLiteral("Script"));
        for (QWidget *widget : m_window->findChildren<QWidget *>()) {
            if (!widget->focusPolicy() || !widget->isVisibleTo(m_window.get()) || qobject_cast<QLabel *>(widget))
                continue;
            if (qobject_cast<QAbstractButton *>(widget) || qobject_cast<QLineEdit *>(widget) ||
                qobject_cast<QAbstractItemView *>(widget) || qobject_cast<QPlainTextEdit *>(widget)) {
                auto *button = qobject_cast<QAbstractButton *>(widget);
                const QString name = button && widget->accessibleName().isEmpty() ? button->text() : widget->accessibleName();
                QVERIFY2(!name.isEmpty(), qPrintable(widget->objectName() + QStringLiteral(" has no accessible name")));
            }
        }
    }

    void requestModel_slidesInPlace_andResetsForAnotherList()
    {
        MockRequestListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        model.apply(numbers(1, 3));                // into an empty list: inserted
        QCOMPARE(inserted.count(), 1);
        model.apply(numbers(1, 3));                // nothing new
        model.apply(numbers(3, 6));                // two fell out of the record, three arrived
        QCOMPARE(reset.count(), 0);
        QCOMPARE(removed.count(), 1);
        QCOMPARE(removed.front().at(1).toInt(), 0);
        QCOMPARE(removed.front().at(2).toInt(), 1);
        QCOMPARE(inserted.count(), 2);
        QCOMPARE(inserted.back().at(1).toInt(), 1);
        QCOMPARE(inserted.back().at(2).toInt(), 3);
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.requestAt(0)->number, std::uint64_t(3));
        model.apply(numbers(1, 2));                // the script was set again
        QCOMPARE(reset.count(), 1);
        QCOMPARE(model.rowCount(), 2);
        model.apply({});                           // cleared
        QCOMPARE(reset.count(), 2);
        QCOMPARE(model.rowCount(), 0);
    }

    void endpointModel_appliesListsInPlace()
    {
        MockEndpointListModel model(QStringLiteral("http://127.0.0.1:1"));
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.apply({{"b", "200", 0}, {"d", "500", 0}});
        model.apply({{"a", "200", 0}, {"b", "200", 4}, {"c", "close", 0}});
        QCOMPARE(reset.count(), 0);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("a"));
        QCOMPARE(model.index(1, MockEndpointListModel::RequestsColumn).data().toString(), QStringLiteral("4"));
        QCOMPARE(model.index(2, MockEndpointListModel::UrlColumn).data().toString(), QStringLiteral("http://127.0.0.1:1/_mock/c"));
        model.apply({});
        QCOMPARE(model.rowCount(), 0);
    }

    void toolsMenu_opensTheWindow_whileABrokerRuns()
    {
        cleanup();
        QTemporaryDir dir;
        MainWindow window;
        auto *action = window.findChild<QAction *>(QStringLiteral("mockEndpointsAction"));
        QVERIFY(action);
        QVERIFY(!action->isEnabled());
        QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_M));
        for (QAction *other : window.findChildren<QAction *>()) // its shortcut is its own
            QVERIFY2(other == action || other->shortcut() != action->shortcut(), qPrintable(other->text()));
        QVERIFY(window.startBroker(testBrokerOptions(dir.filePath(QStringLiteral("tools.db")))));
        QVERIFY(action->isEnabled());
        QVERIFY(window.broker()->mocks().set("from-tools", "204").ok());
        action->trigger();
        auto *opened = window.findChild<MockEndpointsWindow *>();
        QVERIFY(opened);
        QVERIFY(opened->isVisible());
        QVERIFY(!opened->isModal());
        QVERIFY(opened->selectEndpoint(QStringLiteral("from-tools")));
        action->trigger(); // the same window again
        QCOMPARE(window.findChildren<MockEndpointsWindow *>().size(), 1);
    }
};

RELAYDESK_TEST_MAIN(MockEndpointsWindowTest)
#include "mock_endpoints_window_test.moc"
