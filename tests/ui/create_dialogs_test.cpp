// SPDX-License-Identifier: MIT
// The create dialogs against a real engine on a real database file: a queue
// created through the dialog is in the database; every attribute shows its
// default; FIFO; an invalid value or an existing name is refused at its field
// and the dialog stays open with nothing created; a topic with a delivery
// policy preset; subscriptions to a queue (sqs) and to a mock endpoint with
// its script (docs/behaviour.md §4.7); keyboard and accessible names.
#include "attribute_test_support.h"

#include "dialogs/create_queue_dialog.h"
#include "dialogs/create_subscription_dialog.h"
#include "dialogs/create_topic_dialog.h"
#include "dialogs/entity_name_field.h"
#include "mock/mock_endpoints.h"
#include "widgets/attribute_form.h"
#include "support/test_main.h"

#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QWidget>

#include <algorithm>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

void typeInto(QWidget *input, const QString &text)
{
    if (auto *edit = qobject_cast<QLineEdit *>(input)) {
        edit->selectAll();
        QTest::keyClicks(edit, text);
    } else if (auto *plain = qobject_cast<QPlainTextEdit *>(input)) {
        plain->setPlainText(text);
    }
}

std::vector<std::string> queueNames(ServiceBench &bench)
{
    auto page = bench.call<QueuePage>([&](auto reply) { bench.service().listQueues({}, std::nullopt, {}, nullptr, reply); });
    std::vector<std::string> names;
    for (const std::string &url : page->queueUrls)
        names.push_back(url.substr(url.rfind('/') + 1));
    return names;
}

std::vector<SubscriptionSummary> subscriptions(ServiceBench &bench)
{
    auto page = bench.call<SubscriptionPage>(
        [&](auto reply) { bench.service().listSubscriptions({}, {}, nullptr, reply); });
    return page ? page->subscriptions : std::vector<SubscriptionSummary>{};
}

// Presses OK and waits for the broker's answer.
template <class Dialog>
bool pressOk(Dialog &dialog)
{
    QSignalSpy answered(&dialog, &Dialog::answered);
    dialog.accept();
    return waitForCount(answered, 1);
}

} // namespace

class CreateDialogsTest final : public QObject {
    Q_OBJECT

private:
    ServiceBenchSeries m_benches{"create"};
    ServiceBench &bench() { return m_benches.bench(); }

private slots:
    void init() { m_benches.open(); }
    void cleanup() { m_benches.close(); }

    void queueDialog_showsEveryDefault()
    {
        CreateQueueDialog dialog(bench().service());
        dialog.form()->setFifo(true);   // FIFO-only rows too
        const AttributeValues values = dialog.form()->values();
        for (const AttributeDescription &row : queueAttributeDescriptions()) {
            if (row.input == AttributeInput::QueueRedrive)
                QCOMPARE(values.value(row.name), QString());   // none
            else
                QCOMPARE(values.value(row.name), row.defaultValue);
        }
        QVERIFY(dialog.form()->nonDefaultValues().isEmpty() ||
                dialog.form()->nonDefaultValues().keys() == QStringList{QStringLiteral("FifoQueue")});
    }

    void createQueue_throughTheDialog_isInTheDatabase()
    {
        CreateQueueDialog dialog(bench().service());
        dialog.show();
        typeInto(dialog.nameField()->input(), QStringLiteral("orders"));
        typeInto(dialog.form()->input(QStringLiteral("VisibilityTimeout")), QStringLiteral("45"));
        typeInto(dialog.form()->input(QStringLiteral("AutoDeleteOnIdle")), QStringLiteral("3600"));
        saveScreenshot(dialog, QStringLiteral("create_queue_dialog"));
        QVERIFY(pressOk(dialog));
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(dialog.createdName(), QStringLiteral("orders"));
        const AttributeMap stored = queueAttributes(bench(), "orders");
        QCOMPARE(attributeOf(stored, "VisibilityTimeout"), std::string("45"));
        QCOMPARE(attributeOf(stored, "AutoDeleteOnIdle"), std::string("3600"));
        QCOMPARE(attributeOf(stored, "DelaySeconds"), std::string("0"));
    }

    void createFifoQueue_getsTheSuffixAndFifoAttributes()
    {
        CreateQueueDialog dialog(bench().service());
        typeInto(dialog.nameField()->input(), QStringLiteral("jobs"));
        qobject_cast<QCheckBox *>(dialog.form()->input(QStringLiteral("FifoQueue")))->click();
        QVERIFY(dialog.form()->isFifo());
        qobject_cast<QCheckBox *>(dialog.form()->input(QStringLiteral("ContentBasedDeduplication")))->click();
        QVERIFY(pressOk(dialog));
        QCOMPARE(dialog.createdName(), QStringLiteral("jobs.fifo"));
        const AttributeMap stored = queueAttributes(bench(), "jobs.fifo");
        QCOMPARE(attributeOf(stored, "FifoQueue"), std::string("true"));
        QCOMPARE(attributeOf(stored, "ContentBasedDeduplication"), std::string("true"));
    }

    void invalidAttribute_refusedAtItsField_dialogStaysOpen_nothingCreated()
    {
        CreateQueueDialog dialog(bench().service());
        dialog.show();
        typeInto(dialog.nameField()->input(), QStringLiteral("orders"));
        typeInto(dialog.form()->input(QStringLiteral("MessageRetentionPeriod")), QStringLiteral("30"));
        const std::string before = bench().snapshot();
        QVERIFY(pressOk(dialog));
        QVERIFY(dialog.isVisible());
        QVERIFY(dialog.createdName().isEmpty());
        const QString error = dialog.form()->errorAt(QStringLiteral("MessageRetentionPeriod"));
        QVERIFY2(error.startsWith(QStringLiteral("Must be a whole number of")) || error.startsWith(QStringLiteral("Must be a whole number,")),
                 qPrintable(error));
        QCOMPARE(bench().snapshot(), before);
        QVERIFY(queueNames(bench()).empty());
        saveScreenshot(dialog, QStringLiteral("create_queue_refused"));
    }

    // Every field is checked before sending, against the range printed under
    // it; every refusal shows at once, in form order, the keyboard on the first.
    void everyRefusal_atOnce_inFormOrder_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QStringList>("fields");   // typed into, in this order
        QTest::addColumn<QStringList>("values");
        QTest::addColumn<QStringList>("refused");  // the fields refused, in form order
        QTest::newRow("visibility and retention (issue 34)")
            << "orders" << QStringList{"MessageRetentionPeriod", "VisibilityTimeout"} << QStringList{"10", "99999"}
            << QStringList{"VisibilityTimeout", "MessageRetentionPeriod"};
        QTest::newRow("no name, a delay out of range, a word for a size")
            << "" << QStringList{"DelaySeconds", "MaximumMessageSize"} << QStringList{"901", "big"}
            << QStringList{"name", "DelaySeconds", "MaximumMessageSize"};
        QTest::newRow("the range's ends pass")
            << "edges" << QStringList{"VisibilityTimeout", "MessageRetentionPeriod"} << QStringList{"43200", "60"}
            << QStringList{};
    }
    void everyRefusal_atOnce_inFormOrder()
    {
        QFETCH(QString, name);
        QFETCH(QStringList, fields);
        QFETCH(QStringList, values);
        QFETCH(QStringList, refused);
        CreateQueueDialog dialog(bench().service());
        dialog.show();
        typeInto(dialog.nameField()->input(), name);
        for (qsizetype i = 0; i < fields.size(); ++i)
            typeInto(dialog.form()->input(fields[i]), values[i]);
        const std::string before = bench().snapshot();
        QVERIFY(pressOk(dialog));
        if (refused.isEmpty()) {
            QCOMPARE(dialog.createdName(), name);
            return;
        }
        QStringList shown;
        if (!dialog.nameField()->error().isEmpty())
            shown << QStringLiteral("name");
        const QList<QWidget *> order = dialog.form()->focusChain();
        for (const char *field : {"VisibilityTimeout", "MessageRetentionPeriod", "DelaySeconds", "MaximumMessageSize",
                                     "ReceiveMessageWaitTimeSeconds"}) {
            const QString error = dialog.form()->errorAt(QLatin1String(field));
            if (!error.isEmpty()) {
                QVERIFY2(error.contains(QStringLiteral("–")), qPrintable(error)); // names the range it checked
                shown << QLatin1String(field);
            }
        }
        std::sort(shown.begin() + (shown.value(0) == QLatin1String("name") ? 1 : 0), shown.end(),
                  [&](const QString &a, const QString &b) {
                      return order.indexOf(dialog.form()->input(a)) < order.indexOf(dialog.form()->input(b));
                  });
        QCOMPARE(shown, refused);
        QCOMPARE(dialog.message(), QStringLiteral("\u26A0 %1 fields to correct before the queue can be created.").arg(refused.size()));
        QWidget *first = refused.first() == QLatin1String("name") ? dialog.nameField()->input()
                                                                  : dialog.form()->input(refused.first());
        QCOMPARE(dialog.focusWidget(), first);
        QCOMPARE(bench().snapshot(), before);
        QVERIFY(queueNames(bench()).empty());
    }

    void invalidOrExistingName_refusedAtTheName_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("message");
        QTest::newRow("bad character") << "or ders" << "alphanumeric";
        QTest::newRow("exists") << "taken" << "already exists";
        QTest::newRow("empty") << "" << "name";
    }
    void invalidOrExistingName_refusedAtTheName()
    {
        QFETCH(QString, name);
        QFETCH(QString, message);
        QVERIFY(bench().createQueue("taken", {{"VisibilityTimeout", "30"}}));
        CreateQueueDialog dialog(bench().service());
        typeInto(dialog.nameField()->input(), name);
        if (name.isEmpty())
            dialog.accept();
        else
            QVERIFY(pressOk(dialog));
        QVERIFY2(dialog.nameField()->error().contains(message), qPrintable(dialog.nameField()->error()));
        QVERIFY(dialog.createdName().isEmpty());
        QCOMPARE(queueNames(bench()), std::vector<std::string>{"taken"});
    }

    void createTopic_withAPolicyPreset()
    {
        CreateTopicDialog dialog(bench().service());
        typeInto(dialog.nameField()->input(), QStringLiteral("events"));
        typeInto(dialog.form()->input(QStringLiteral("DisplayName")), QStringLiteral("Order events"));
        QComboBox *preset = dialog.presetSelector();
        preset->setCurrentIndex(preset->findData(QStringLiteral("sns-example")));
        emit preset->activated(preset->currentIndex());
        QVERIFY(dialog.deliveryPolicy()->toPlainText().contains(QStringLiteral("defaultHealthyRetryPolicy")));
        saveScreenshot(dialog, QStringLiteral("create_topic_dialog"));
        QVERIFY(pressOk(dialog));
        QCOMPARE(dialog.createdName(), QStringLiteral("events"));
        const AttributeMap stored = topicAttributes(bench(), "events");
        QCOMPARE(attributeOf(stored, "DisplayName"), std::string("Order events"));
        QCOMPARE(QString::fromStdString(attributeOf(stored, "DeliveryPolicy")), dialog.deliveryPolicy()->toPlainText().trimmed());
    }

    void createTopic_badDeliveryPolicy_refusedAtThePolicy()
    {
        CreateTopicDialog dialog(bench().service());
        typeInto(dialog.nameField()->input(), QStringLiteral("events"));
        typeInto(dialog.deliveryPolicy(),
                 QStringLiteral("{\"http\": {\"defaultHealthyRetryPolicy\": {\"numRetries\": 101}}}"));
        QVERIFY(pressOk(dialog));
        QVERIFY2(dialog.deliveryPolicyError().contains(QStringLiteral("DeliveryPolicy")), qPrintable(dialog.deliveryPolicyError()));
        QVERIFY(dialog.deliveryPolicyError().contains(QStringLiteral("numRetries")));
        QVERIFY(dialog.createdName().isEmpty());
        QVERIFY(topicAttributes(bench(), "events").empty());
    }

    void subscribeSqs_toAQueueChosenFromTheBroker()
    {
        QVERIFY(bench().createTopic("events"));
        QVERIFY(bench().createQueue("inbox"));
        CreateSubscriptionDialog dialog(bench().service(), nullptr, QStringLiteral("http://127.0.0.1:9911"),
                                        QStringLiteral("events"));
        dialog.protocolSelector()->setCurrentText(QStringLiteral("sqs"));
        QTRY_COMPARE_WITH_TIMEOUT(dialog.queueSelector()->count(), 1, kWaitMs);
        QCOMPARE(dialog.endpoint(), QString::fromStdString(bench().identity().queueArn("inbox")));
        dialog.rawDelivery()->click();
        saveScreenshot(dialog, QStringLiteral("create_subscription_sqs"));
        QVERIFY(pressOk(dialog));
        QVERIFY(!dialog.createdArn().isEmpty());
        const AttributeMap stored = subscriptionAttributes(bench(), dialog.createdArn().toStdString());
        QCOMPARE(attributeOf(stored, "Protocol"), std::string("sqs"));
        QCOMPARE(attributeOf(stored, "Endpoint"), bench().identity().queueArn("inbox"));
        QCOMPARE(attributeOf(stored, "RawMessageDelivery"), std::string("true"));
    }

    // A standard topic is offered standard queues only, a FIFO topic FIFO
    // queues only: the dialog never pre-selects a queue SNS would refuse.
    void subscribeSqs_offersQueuesOfTheTopicsKind_data()
    {
        QTest::addColumn<QString>("topic");
        QTest::addColumn<QString>("offered");
        QTest::newRow("standard topic") << QStringLiteral("events") << QStringLiteral("inbox");
        QTest::newRow("FIFO topic") << QStringLiteral("events.fifo") << QStringLiteral("ordered.fifo");
    }
    void subscribeSqs_offersQueuesOfTheTopicsKind()
    {
        QFETCH(QString, topic);
        QFETCH(QString, offered);
        const AttributeMap fifo{{"FifoQueue", "true"}};
        QVERIFY(bench().createTopic(topic.toStdString(), topic.endsWith(QLatin1String(".fifo")) ? AttributeMap{{"FifoTopic", "true"}} : AttributeMap{}));
        QVERIFY(bench().createQueue("ordered.fifo", fifo));
        QVERIFY(bench().createQueue("inbox"));
        CreateSubscriptionDialog dialog(bench().service(), nullptr, QStringLiteral("http://127.0.0.1:9911"), topic);
        dialog.protocolSelector()->setCurrentText(QStringLiteral("sqs"));
        QTRY_COMPARE_WITH_TIMEOUT(dialog.queueSelector()->count(), 1, kWaitMs);
        QCOMPARE(dialog.queueSelector()->currentText(), offered);
    }

    void subscribeHttp_toANewMockEndpointWithItsScript()
    {
        QVERIFY(bench().createTopic("events"));
        MockEndpoints mocks(bench().engine().clock());
        const QString base = QStringLiteral("http://127.0.0.1:9911");
        CreateSubscriptionDialog dialog(bench().service(), &mocks, base, QStringLiteral("events"));
        dialog.show();
        QVERIFY(dialog.useMock()->isChecked());
        dialog.mockName()->setEditText(QStringLiteral("flaky"));
        typeInto(dialog.mockScript(), QStringLiteral("503 x 3, then 200"));
        typeInto(dialog.filterPolicy(), QStringLiteral("{\"kind\": [\"order\"]}"));
        QCOMPARE(dialog.url()->text(), base + QStringLiteral("/_mock/flaky"));
        QCOMPARE(dialog.mockName()->lineEdit()->accessibleName(), QStringLiteral("Mock name"));   // AT-SPI shows it as an input
        saveScreenshot(dialog, QStringLiteral("create_subscription_mock"));
        QVERIFY(pressOk(dialog));
        QVERIFY2(!dialog.createdArn().isEmpty(), qPrintable(dialog.message()));
        const auto mock = mocks.find("flaky");
        QVERIFY(mock);
        QCOMPARE(mock->script, std::string("503 x 3, then 200"));
        const AttributeMap stored = subscriptionAttributes(bench(), dialog.createdArn().toStdString());
        QCOMPARE(attributeOf(stored, "Endpoint"), (base + QStringLiteral("/_mock/flaky")).toStdString());
        QCOMPARE(attributeOf(stored, "PendingConfirmation"), std::string("false"));   // a mock cannot confirm
        QCOMPARE(attributeOf(stored, "FilterPolicy"), std::string("{\"kind\": [\"order\"]}"));
    }

    void subscribe_badScriptOrFilter_refusedAtTheField_nothingMade_data()
    {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QString>("filter");
        QTest::addColumn<QString>("field");
        QTest::newRow("script") << "503 x zero" << "" << "mockScript";
        QTest::newRow("filter") << "200" << "{\"kind\": \"order\"}" << "FilterPolicy";
    }
    void subscribe_badScriptOrFilter_refusedAtTheField_nothingMade()
    {
        QFETCH(QString, script);
        QFETCH(QString, filter);
        QFETCH(QString, field);
        QVERIFY(bench().createTopic("events"));
        MockEndpoints mocks(bench().engine().clock());
        CreateSubscriptionDialog dialog(bench().service(), &mocks, QStringLiteral("http://127.0.0.1:9911"),
                                        QStringLiteral("events"));
        dialog.mockName()->setEditText(QStringLiteral("flaky"));
        typeInto(dialog.mockScript(), script);
        typeInto(dialog.filterPolicy(), filter);
        QVERIFY(pressOk(dialog));
        QWidget *input = dialog.findChild<QWidget *>(field);
        QVERIFY(input);
        QVERIFY2(!dialog.errorAt(input).isEmpty(), qPrintable(dialog.message()));
        QVERIFY(dialog.createdArn().isEmpty());
        QVERIFY(mocks.list().empty());
        QVERIFY(subscriptions(bench()).empty());
    }

    void everyControl_labelledForScreenReaders()
    {
        MockEndpoints mocks(bench().engine().clock());
        CreateQueueDialog queue(bench().service());
        QCOMPARE(accessibilityProblem(queue), QString());
        CreateTopicDialog topic(bench().service());
        QCOMPARE(accessibilityProblem(topic), QString());
        CreateSubscriptionDialog subscription(bench().service(), &mocks, QStringLiteral("http://127.0.0.1:9911"),
                                              QStringLiteral("events"));
        QCOMPARE(accessibilityProblem(subscription), QString());
    }
};

RELAYDESK_TEST_MAIN(CreateDialogsTest)
#include "create_dialogs_test.moc"
