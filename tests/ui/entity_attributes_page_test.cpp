// SPDX-License-Identifier: MIT
// The attribute editor of queues, topics and subscriptions against a real
// engine on a real database file (virtual clock): it shows the stored values,
// Apply writes what changed, an invalid value is refused at its field with the
// broker's message and changes nothing, Revert, tags, the dead-letter queue
// chosen from the broker's queues, a change made elsewhere (reloaded, or a
// banner while editing), and keyboard / accessible names.
#include "attribute_test_support.h"

#include "widgets/attribute_form.h"
#include "widgets/changed_elsewhere_banner.h"
#include "views/entity_attributes_page.h"
#include "support/test_main.h"

#include <QLocale>
#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>

using namespace relaydesk;
using namespace relaydesk::testing;
using Entity = EntityChange::Entity;

namespace {

OpenPage<EntityAttributesPage> openPage(ServiceBench &bench, Entity kind, const QString &name)
{
    return testing::openPage<EntityAttributesPage>(bench, kind, name, QSize(900, 1000));
}

bool settle(OpenPage<EntityAttributesPage> &open)
{
    return open.settle();
}

void type(AttributeForm *form, const QString &name, const QString &text)
{
    QWidget *input = form->input(name);
    if (auto *edit = qobject_cast<QLineEdit *>(input)) {
        edit->selectAll();
        QTest::keyClicks(edit, text);   // textEdited, as a person types
        if (text.isEmpty())
            QTest::keyClick(edit, Qt::Key_Delete);
    } else if (auto *plain = qobject_cast<QPlainTextEdit *>(input)) {
        plain->setPlainText(text);
    }
}

} // namespace

class EntityAttributesPageTest final : public QObject {
    Q_OBJECT

private:
    ServiceBenchSeries m_benches{"attributes"};
    ServiceBench &bench() { return m_benches.bench(); }

private slots:
    void init() { m_benches.open(); }
    void cleanup() { m_benches.close(); }

    void queuePage_showsStoredValuesWithUnitRangeAndExplanation()
    {
        QVERIFY(bench().createQueue("orders", {{"VisibilityTimeout", "45"}}));
        auto open = openPage(bench(), Entity::Queue, QStringLiteral("orders"));
        QVERIFY(waitForCount(*open.settled, 1));
        AttributeForm *form = open.page->form();
        QCOMPARE(qobject_cast<QLineEdit *>(form->input(QStringLiteral("VisibilityTimeout")))->text(), QStringLiteral("45"));
        QCOMPARE(qobject_cast<QLineEdit *>(form->input(QStringLiteral("MessageRetentionPeriod")))->text(),
                 QStringLiteral("345600"));
        const auto *help = form->findChild<QLabel *>(QStringLiteral("VisibilityTimeoutHelp"));
        QVERIFY(help);
        QVERIFY2(help->text().contains(QStringLiteral("0–%1 s").arg(QLocale().toString(43200))), qPrintable(help->text()));
        QVERIFY(help->text().contains(QStringLiteral("hidden")));
        QVERIFY(!form->input(QStringLiteral("FifoQueue"))->isEnabled());   // fixed at creation
        QVERIFY(!open.page->findChild<QPushButton *>(QStringLiteral("applyButton"))->isEnabled());
        saveScreenshot(*open.page, QStringLiteral("queue_attributes_page"));
    }

    void apply_writesTheChangedAttributes()
    {
        QVERIFY(bench().createQueue("orders"));
        auto open = openPage(bench(), Entity::Queue, QStringLiteral("orders"));
        QVERIFY(waitForCount(*open.settled, 1));
        type(open.page->form(), QStringLiteral("VisibilityTimeout"), QStringLiteral("60"));
        type(open.page->form(), QStringLiteral("DefaultMessageTimeToLive"), QStringLiteral("3600"));
        qobject_cast<QCheckBox *>(open.page->form()->input(QStringLiteral("DeadLetteringOnMessageExpiration")))->click();
        QVERIFY(open.page->findChild<QPushButton *>(QStringLiteral("applyButton"))->isEnabled());
        open.page->findChild<QPushButton *>(QStringLiteral("applyButton"))->click();
        QVERIFY(settle(open));
        const AttributeMap stored = queueAttributes(bench(), "orders");
        QCOMPARE(attributeOf(stored, "VisibilityTimeout"), std::string("60"));
        QCOMPARE(attributeOf(stored, "DefaultMessageTimeToLive"), std::string("3600"));
        QCOMPARE(attributeOf(stored, "DeadLetteringOnMessageExpiration"), std::string("true"));
        QCOMPARE(open.page->message(), QStringLiteral("Applied."));
        QVERIFY(!open.page->form()->isModified());
    }

    void invalidValue_refusedAtItsFieldAndNothingChanged_data()
    {
        QTest::addColumn<QString>("attribute");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("message");   // a part of the broker's own message
        QTest::newRow("visibility too long") << "VisibilityTimeout" << "43201" << "must be an integer from 0 to 43200";
        QTest::newRow("delay not a number") << "DelaySeconds" << "soon" << "must be an integer from 0 to 900";
        QTest::newRow("retention too short") << "MessageRetentionPeriod" << "59" << "from 60 to 1209600";
        QTest::newRow("size too small") << "MaximumMessageSize" << "1023" << "from 1024 to 1048576";
        QTest::newRow("wait too long") << "ReceiveMessageWaitTimeSeconds" << "21" << "from 0 to 20";
        QTest::newRow("idle under 5 min") << "AutoDeleteOnIdle" << "299" << "AutoDeleteOnIdle";
        QTest::newRow("ttl zero") << "DefaultMessageTimeToLive" << "0" << "DefaultMessageTimeToLive";
        QTest::newRow("policy not JSON") << "Policy" << "{nope" << "must be a JSON policy document";
    }
    void invalidValue_refusedAtItsFieldAndNothingChanged()
    {
        QFETCH(QString, attribute);
        QFETCH(QString, value);
        QFETCH(QString, message);
        QVERIFY(bench().createQueue("orders"));
        auto open = openPage(bench(), Entity::Queue, QStringLiteral("orders"));
        QVERIFY(waitForCount(*open.settled, 1));
        const std::string before = bench().snapshot();
        type(open.page->form(), QStringLiteral("VisibilityTimeout"), QStringLiteral("31"));   // a valid change besides
        type(open.page->form(), attribute, value);
        open.page->apply();
        QVERIFY(settle(open));
        const QString error = open.page->form()->errorAt(attribute);
        QVERIFY2(error.contains(message), qPrintable(error));
        QVERIFY2(error.contains(attribute) || attribute == QLatin1String("Policy"), qPrintable(error));
        QCOMPARE(open.page->form()->input(attribute)->property("policyIssue").toString(), QStringLiteral("error"));
        QCOMPARE(bench().snapshot(), before);
        QVERIFY(open.page->form()->isModified());   // the edits stay for the user to fix
    }

    void topicWithAnInvalidValueAmongSeveral_nothingChanged()
    {
        QVERIFY(bench().createTopic("events"));
        auto open = openPage(bench(), Entity::Topic, QStringLiteral("events"));
        QVERIFY(waitForCount(*open.settled, 1));
        const std::string before = bench().snapshot();
        type(open.page->form(), QStringLiteral("DisplayName"), QStringLiteral("Order events"));
        type(open.page->form(), QStringLiteral("AutoDeleteOnIdle"), QStringLiteral("60"));
        open.page->apply();
        QVERIFY(settle(open));
        QVERIFY2(open.page->form()->errorAt(QStringLiteral("AutoDeleteOnIdle")).contains(QStringLiteral("AutoDeleteOnIdle")),
                 qPrintable(open.page->form()->errorAt(QStringLiteral("AutoDeleteOnIdle"))));
        QCOMPARE(bench().snapshot(), before);   // DisplayName was not written either
        saveScreenshot(*open.page, QStringLiteral("topic_attributes_refused"));
    }

    void subscriptionFilterPolicy_appliedAndRefused()
    {
        QVERIFY(bench().createTopic("events"));
        QVERIFY(bench().createQueue("inbox"));
        auto receipt = bench().subscribe("events", "sqs", bench().identity().queueArn("inbox"));
        QVERIFY(receipt);
        const QString arn = QString::fromStdString(receipt->subscriptionArn);
        auto open = openPage(bench(), Entity::Subscription, arn);
        QVERIFY(waitForCount(*open.settled, 1));
        QCOMPARE(qobject_cast<QLabel *>(open.page->form()->input(QStringLiteral("Protocol")))->text(), QStringLiteral("sqs"));
        type(open.page->form(), QStringLiteral("FilterPolicy"), QStringLiteral("{\"kind\": \"order\"}"));
        // The subscription's own creation may still reload the page once (a
        // change event after the first load), and Apply is disabled while the
        // page is busy: apply as a person would, once it is enabled again, and
        // wait for the outcome itself rather than the next settle.
        QTRY_VERIFY_WITH_TIMEOUT(!open.page->isBusy(), kWaitMs);
        open.page->apply();
        QTRY_VERIFY_WITH_TIMEOUT(!open.page->form()->errorAt(QStringLiteral("FilterPolicy")).isEmpty(), kWaitMs);
        QCOMPARE(attributeOf(subscriptionAttributes(bench(), receipt->subscriptionArn), "FilterPolicy"), std::string());
        type(open.page->form(), QStringLiteral("FilterPolicy"), QStringLiteral("{\"kind\": [\"order\"]}"));
        QTRY_VERIFY_WITH_TIMEOUT(!open.page->isBusy(), kWaitMs);
        open.page->apply();
        QTRY_COMPARE_WITH_TIMEOUT(attributeOf(subscriptionAttributes(bench(), receipt->subscriptionArn), "FilterPolicy"),
                                  std::string("{\"kind\": [\"order\"]}"), kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(!open.page->isBusy(), kWaitMs);
        saveScreenshot(*open.page, QStringLiteral("subscription_attributes_page"));
    }

    void revert_showsTheStoredValuesAgain()
    {
        QVERIFY(bench().createQueue("orders"));
        auto open = openPage(bench(), Entity::Queue, QStringLiteral("orders"));
        QVERIFY(waitForCount(*open.settled, 1));
        type(open.page->form(), QStringLiteral("DelaySeconds"), QStringLiteral("12"));
        QVERIFY(open.page->form()->isModified());
        open.page->findChild<QPushButton *>(QStringLiteral("revertButton"))->click();
        QCOMPARE(qobject_cast<QLineEdit *>(open.page->form()->input(QStringLiteral("DelaySeconds")))->text(), QStringLiteral("0"));
        QVERIFY(!open.page->form()->isModified());
    }

    void deadLetterQueue_chosenFromTheBrokersQueues()
    {
        QVERIFY(bench().createQueue("orders-dlq"));
        QVERIFY(bench().createQueue("orders"));
        auto open = openPage(bench(), Entity::Queue, QStringLiteral("orders"));
        QVERIFY(waitForCount(*open.settled, 1));
        auto *combo = qobject_cast<QComboBox *>(open.page->form()->input(QStringLiteral("RedrivePolicy")));
        QTRY_VERIFY_WITH_TIMEOUT(combo->findText(QStringLiteral("orders-dlq")) >= 0, kWaitMs);
        combo->setCurrentIndex(combo->findText(QStringLiteral("orders-dlq")));
        emit combo->activated(combo->currentIndex());
        auto *count = open.page->form()->findChild<QLineEdit *>(QStringLiteral("RedrivePolicyMaxReceiveCount"));
        count->selectAll();
        QTest::keyClicks(count, QStringLiteral("5"));
        open.page->apply();
        QVERIFY(settle(open));
        QCOMPARE(attributeOf(queueAttributes(bench(), "orders"), "RedrivePolicy"),
                 "{\"deadLetterTargetArn\":\"" + bench().identity().queueArn("orders-dlq") + "\",\"maxReceiveCount\":5}");
        QVERIFY(!open.page->form()->isModified());
    }

    void tags_addedAndRemoved()
    {
        QVERIFY(bench().createQueue("orders"));
        QVERIFY(bench().callStatus([&](auto reply) {
            bench().service().tagQueue("orders", {{"team", "core"}, {"old", "x"}}, nullptr, reply);
        }));
        auto open = openPage(bench(), Entity::Queue, QStringLiteral("orders"));
        QVERIFY(waitForCount(*open.settled, 1));
        QTableWidget *table = open.page->tagEditor()->table();
        QCOMPARE(table->rowCount(), 2);
        table->setCurrentCell(0, 0);   // "old" (sorted)
        open.page->tagEditor()->findChild<QPushButton *>(QStringLiteral("removeTag"))->click();
        open.page->tagEditor()->findChild<QPushButton *>(QStringLiteral("addTag"))->click();
        table->item(table->rowCount() - 1, 0)->setText(QStringLiteral("env"));
        table->item(table->rowCount() - 1, 1)->setText(QStringLiteral("dev"));
        open.page->apply();
        QVERIFY(settle(open));
        auto tags = bench().call<QueueTags>([&](auto reply) { bench().service().listQueueTags("orders", nullptr, reply); });
        QVERIFY(tags);
        QCOMPARE(tags.value(), (QueueTags{{"env", "dev"}, {"team", "core"}}));
    }

    void changeElsewhere_withoutEdits_isShownAtOnce()
    {
        QVERIFY(bench().createQueue("orders"));
        auto open = openPage(bench(), Entity::Queue, QStringLiteral("orders"));
        QVERIFY(waitForCount(*open.settled, 1));
        QVERIFY(bench().callStatus([&](auto reply) {
            bench().service().setQueueAttributes("orders", {{"VisibilityTimeout", "99"}}, nullptr, reply);
        }));
        QVERIFY(settle(open));
        QCOMPARE(qobject_cast<QLineEdit *>(open.page->form()->input(QStringLiteral("VisibilityTimeout")))->text(),
                 QStringLiteral("99"));
        QVERIFY(open.page->banner()->isHidden());
        QVERIFY(open.page->message().contains(QStringLiteral("changed elsewhere")));
    }

    void changeElsewhere_whileEditing_bannerThenReloadOrKeep_data()
    {
        QTest::addColumn<bool>("reload");
        QTest::newRow("reload") << true;
        QTest::newRow("keep editing") << false;
    }
    void changeElsewhere_whileEditing_bannerThenReloadOrKeep()
    {
        QFETCH(bool, reload);
        QVERIFY(bench().createQueue("orders"));
        auto open = openPage(bench(), Entity::Queue, QStringLiteral("orders"));
        QVERIFY(waitForCount(*open.settled, 1));
        type(open.page->form(), QStringLiteral("DelaySeconds"), QStringLiteral("7"));
        QVERIFY(bench().callStatus([&](auto reply) {
            bench().service().setQueueAttributes("orders", {{"VisibilityTimeout", "99"}}, nullptr, reply);
        }));
        QVERIFY(settle(open));
        QVERIFY(!open.page->banner()->isHidden());
        QVERIFY(open.page->banner()->text().contains(QStringLiteral("changed elsewhere")));
        auto *visibility = qobject_cast<QLineEdit *>(open.page->form()->input(QStringLiteral("VisibilityTimeout")));
        QCOMPARE(visibility->text(), QStringLiteral("30"));   // nothing replaced under the user's hands
        saveScreenshot(*open.page, QStringLiteral("queue_attributes_changed_elsewhere"));
        if (reload) {
            open.page->banner()->findChild<QPushButton *>(QStringLiteral("reloadButton"))->click();
            QCOMPARE(visibility->text(), QStringLiteral("99"));
            QCOMPARE(qobject_cast<QLineEdit *>(open.page->form()->input(QStringLiteral("DelaySeconds")))->text(),
                     QStringLiteral("0"));
            return;
        }
        open.page->banner()->findChild<QPushButton *>(QStringLiteral("keepEditingButton"))->click();
        open.page->apply();
        QVERIFY(settle(open));
        const AttributeMap stored = queueAttributes(bench(), "orders");
        QCOMPARE(attributeOf(stored, "DelaySeconds"), std::string("7"));
        QCOMPARE(attributeOf(stored, "VisibilityTimeout"), std::string("99"));   // no silent overwrite
    }

    void deletedElsewhere_saysSo()
    {
        QVERIFY(bench().createQueue("orders"));
        auto open = openPage(bench(), Entity::Queue, QStringLiteral("orders"));
        QVERIFY(waitForCount(*open.settled, 1));
        QVERIFY(bench().callStatus([&](auto reply) { bench().service().deleteQueue("orders", nullptr, reply); }));
        QTRY_VERIFY_WITH_TIMEOUT(!open.page->banner()->isHidden(), kWaitMs);
        QVERIFY(open.page->banner()->text().contains(QStringLiteral("no longer exists")));
        QVERIFY(!open.page->findChild<QPushButton *>(QStringLiteral("applyButton"))->isEnabled());
    }

    void everyInput_keyboardReachableWithItsLabelAsAccessibleName_data()
    {
        QTest::addColumn<int>("kind");
        QTest::newRow("queue") << int(Entity::Queue);
        QTest::newRow("topic") << int(Entity::Topic);
        QTest::newRow("subscription") << int(Entity::Subscription);
    }
    void everyInput_keyboardReachableWithItsLabelAsAccessibleName()
    {
        QFETCH(int, kind);
        EntityAttributesPage page(bench().service(), bench().engine(), Entity(kind), QStringLiteral("none"));
        QCOMPARE(accessibilityProblem(page), QString());
        const auto &rows = attributeDescriptions(Entity(kind));
        for (const AttributeDescription &row : rows) {
            QWidget *input = page.form()->input(row.name);
            QVERIFY2(input, qPrintable(row.name));
            QCOMPARE(input->accessibleName(), accessibleLabelText(row.label));
        }
    }
};

RELAYDESK_TEST_MAIN(EntityAttributesPageTest)
#include "entity_attributes_page_test.moc"
