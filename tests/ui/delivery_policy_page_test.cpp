// SPDX-License-Identifier: MIT
// The Policy tab of topics and subscriptions against a real engine on a real
// database file: the embedded policy editor edits the entity's DeliveryPolicy,
// Apply writes it, the broker's refusal is shown at the field and nothing
// changes; for a subscription the effective policy shows where each value
// comes from (subscription / topic / default / fixed, and the topic's
// override flag), following changes made elsewhere.
#include "attribute_test_support.h"

#include "widgets/changed_elsewhere_banner.h"
#include "views/delivery_policy_page.h"
#include "policy_editor/policy_editor.h"
#include "policy_editor/policy_field_form.h"
#include "support/test_main.h"

#include <QCheckBox>
#include <QJsonDocument>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>

using namespace relaydesk;
using namespace relaydesk::testing;
using Entity = EntityChange::Entity;

namespace {

const std::string kTopicPolicy =
    R"({"http": {"defaultHealthyRetryPolicy": {"numRetries": 6, "minDelayTarget": 5, "maxDelayTarget": 40, "backoffFunction": "exponential"}}})";
const std::string kTopicPolicyNoOverrides =
    R"({"http": {"defaultHealthyRetryPolicy": {"numRetries": 6, "minDelayTarget": 5, "maxDelayTarget": 40}, "disableSubscriptionOverrides": true}})";
const std::string kSubscriptionPolicy =
    R"({"healthyRetryPolicy": {"numRetries": 9, "minDelayTarget": 2, "maxDelayTarget": 30}, "throttlePolicy": {"maxReceivesPerSecond": 4}})";

OpenPage<DeliveryPolicyPage> openPage(ServiceBench &bench, Entity kind, const QString &name)
{
    return testing::openPage<DeliveryPolicyPage>(bench, kind, name, QSize(1400, 820));
}

bool settle(OpenPage<DeliveryPolicyPage> &open)
{
    return open.settle();
}

// The row of `field` in the effective table: {value, from}.
QPair<QString, QString> effectiveRow(QTableWidget *table, const QString &field)
{
    for (int row = 0; row < table->rowCount(); ++row) {
        if (table->item(row, 0) && table->item(row, 0)->text() == field)
            return {table->item(row, 1)->text(), table->item(row, 2)->text()};
    }
    return {};
}

} // namespace

class DeliveryPolicyPageTest final : public QObject {
    Q_OBJECT

private:
    ServiceBenchSeries m_benches{"policy"};
    ServiceBench &bench() { return m_benches.bench(); }

    std::string subscribeHttp(const AttributeMap &attributes = {})
    {
        auto receipt = bench().call<SubscribeReceipt>([&](auto reply) {
            bench().service().subscribe("events", "http", "http://127.0.0.1:1/hook", attributes, true, nullptr, reply);
        });
        return receipt ? receipt->subscriptionArn : std::string();
    }

private slots:
    void init() { m_benches.open(); }
    void cleanup() { m_benches.close(); }

    void subscriptionPolicy_showsWhereEachValueComesFrom_data()
    {
        QTest::addColumn<QString>("topicPolicy");
        QTest::addColumn<QString>("ownPolicy");
        QTest::addColumn<QString>("protocol");
        QTest::addColumn<QString>("numRetries");
        QTest::addColumn<QString>("retryFrom");
        QTest::addColumn<QString>("throttleFrom");
        QTest::addColumn<bool>("overridesDisabled");
        QTest::newRow("default") << "" << "" << "http" << "3" << "default" << "default" << false;
        QTest::newRow("topic") << QString::fromStdString(kTopicPolicy) << "" << "http" << "6" << "topic" << "default" << false;
        QTest::newRow("subscription") << QString::fromStdString(kTopicPolicy) << QString::fromStdString(kSubscriptionPolicy)
                                      << "http" << "9" << "subscription" << "subscription" << false;
        QTest::newRow("override disabled") << QString::fromStdString(kTopicPolicyNoOverrides)
                                           << QString::fromStdString(kSubscriptionPolicy) << "http" << "6"
                                           << "topic (overrides disabled)" << "default" << true;
        QTest::newRow("sqs fixed") << QString::fromStdString(kTopicPolicy) << "" << "sqs" << "100015" << "fixed" << "fixed" << false;
    }
    void subscriptionPolicy_showsWhereEachValueComesFrom()
    {
        QFETCH(QString, topicPolicy);
        QFETCH(QString, ownPolicy);
        QFETCH(QString, protocol);
        QFETCH(QString, numRetries);
        QFETCH(QString, retryFrom);
        QFETCH(QString, throttleFrom);
        QFETCH(bool, overridesDisabled);
        AttributeMap topic;
        if (!topicPolicy.isEmpty())
            topic["DeliveryPolicy"] = topicPolicy.toStdString();
        QVERIFY(bench().createTopic("events", topic));
        std::string arn;
        if (protocol == QLatin1String("sqs")) {
            QVERIFY(bench().createQueue("inbox"));
            arn = bench().subscribe("events", "sqs", bench().identity().queueArn("inbox"))->subscriptionArn;
        } else {
            AttributeMap own;
            if (!ownPolicy.isEmpty())
                own["DeliveryPolicy"] = ownPolicy.toStdString();
            arn = subscribeHttp(own);
        }
        QVERIFY(!arn.empty());
        auto open = openPage(bench(), Entity::Subscription, QString::fromStdString(arn));
        QVERIFY(waitForCount(*open.settled, 1));
        QTableWidget *table = open.page->effectiveTable();
        QVERIFY(table);
        const auto retries = effectiveRow(table, QStringLiteral("numRetries"));
        QCOMPARE(retries.first, numRetries);
        QCOMPARE(retries.second, retryFrom);
        QCOMPARE(effectiveRow(table, QStringLiteral("minDelayTarget")).second, retryFrom);
        QCOMPARE(effectiveRow(table, QStringLiteral("maxReceivesPerSecond")).second, throttleFrom);
        QCOMPARE(open.page->overrideNote().contains(QStringLiteral("disableSubscriptionOverrides = true")), overridesDisabled);
        QCOMPARE(open.page->ownPolicyBox()->isChecked(), !ownPolicy.isEmpty());
        QCOMPARE(open.page->ownPolicyBox()->isEnabled(), protocol != QLatin1String("sqs"));
        saveScreenshot(*open.page, QStringLiteral("subscription_policy_") + QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('_')));
    }

    // A Zaqar subscription (its policy stored in the Zaqar form, as the /v2/
    // API writes it) opens the editor in the Zaqar form and plans its
    // schedule in the Zaqar dialect.
    void zaqarSubscription_editedInTheZaqarForm()
    {
        const std::string zaqarPolicy =
            R"({"_retry_policy": {"retries_with_no_delay": 3, "minimum_delay_retries": 3, "minimum_delay": 5,)"
            R"( "maximum_delay": 60, "maximum_delay_retries": 3, "retry_backoff_function": "linear"}})";
        QVERIFY(bench().createTopic("events", {{"DeliveryPolicy", zaqarPolicy}}));
        const std::string arn = subscribeHttp({{"DeliveryPolicy", zaqarPolicy}});
        QVERIFY(!arn.empty());
        auto open = openPage(bench(), Entity::Subscription, QString::fromStdString(arn));
        QVERIFY(waitForCount(*open.settled, 1));
        const std::optional<DeliveryPolicy> &policy = open.page->editor()->evaluation().policy();
        QVERIFY(policy.has_value());
        QCOMPARE(int(policy->form), int(PolicyForm::Zaqar));
        QCOMPARE(int(policy->dialect), int(Dialect::Zaqar));
        QVERIFY(open.page->editor()->jsonText().contains(QStringLiteral("_retry_policy")));
        // The blueprint's example: 3 immediate, 3 at 5 s, 12 backing off to 60 s,
        // 3 at 60 s — 21 retries, 22 attempts.
        QCOMPARE(open.page->editor()->evaluation().schedule()->retries(), int64_t(21));
    }

    void topicPolicy_appliedThroughTheBroker()
    {
        QVERIFY(bench().createTopic("events"));
        auto open = openPage(bench(), Entity::Topic, QStringLiteral("events"));
        QVERIFY(waitForCount(*open.settled, 1));
        QVERIFY(!open.page->ownPolicyBox()->isChecked());
        open.page->ownPolicyBox()->click();
        open.page->editor()->setJsonText(QString::fromStdString(kTopicPolicy));
        QVERIFY(open.page->isModified());
        open.page->findChild<QPushButton *>(QStringLiteral("applyButton"))->click();
        QVERIFY(settle(open));
        QCOMPARE(attributeOf(topicAttributes(bench(), "events"), "DeliveryPolicy"), kTopicPolicy);
        QCOMPARE(open.page->message(), QStringLiteral("Applied."));
        QVERIFY(!open.page->isModified());
        saveScreenshot(*open.page, QStringLiteral("topic_policy_page"));

        open.page->ownPolicyBox()->click();   // off: the attribute is emptied
        open.page->apply();
        QVERIFY(settle(open));
        QCOMPARE(attributeOf(topicAttributes(bench(), "events"), "DeliveryPolicy"), std::string());
    }

    void invalidPolicy_refusedWithTheBrokersMessageAtTheField_nothingChanged()
    {
        QVERIFY(bench().createTopic("events"));
        const std::string arn = subscribeHttp({{"DeliveryPolicy", kSubscriptionPolicy}});
        auto open = openPage(bench(), Entity::Subscription, QString::fromStdString(arn));
        QVERIFY(waitForCount(*open.settled, 1));
        const std::string before = bench().snapshot();
        // Over the 3600 s HTTP/S cap (docs/behaviour.md §2.1).
        open.page->editor()->setJsonText(QStringLiteral(
            R"({"healthyRetryPolicy": {"numRetries": 100, "numMaxDelayRetries": 90, "minDelayTarget": 20, "maxDelayTarget": 3600}})"));
        open.page->apply();
        QVERIFY(settle(open));
        QVERIFY2(open.page->brokerError().startsWith(QStringLiteral("Invalid parameter: Attributes Reason: DeliveryPolicy:")),
                 qPrintable(open.page->brokerError()));
        QCOMPARE(bench().snapshot(), before);
        QCOMPARE(open.page->editor()->findChild<QWidget *>(QStringLiteral("policyJson"))->property("policyIssue").toString(),
                 QStringLiteral("error"));
        saveScreenshot(*open.page, QStringLiteral("subscription_policy_refused"));
    }

    void topicChangedElsewhere_updatesTheEffectivePolicy_ownEditsGetTheBanner()
    {
        QVERIFY(bench().createTopic("events"));
        const std::string arn = subscribeHttp();
        auto open = openPage(bench(), Entity::Subscription, QString::fromStdString(arn));
        QVERIFY(waitForCount(*open.settled, 1));
        QCOMPARE(effectiveRow(open.page->effectiveTable(), QStringLiteral("numRetries")).second, QStringLiteral("default"));
        QVERIFY(bench().callStatus([&](auto reply) {
            bench().service().setTopicAttribute("events", "DeliveryPolicy", kTopicPolicy, nullptr, reply);
        }));
        QVERIFY(settle(open));
        QCOMPARE(effectiveRow(open.page->effectiveTable(), QStringLiteral("numRetries")),
                 (QPair<QString, QString>{QStringLiteral("6"), QStringLiteral("topic")}));

        open.page->ownPolicyBox()->click();   // editing
        QVERIFY(open.page->isModified());
        QVERIFY(bench().callStatus([&](auto reply) {
            bench().service().setSubscriptionAttribute(arn, "DeliveryPolicy", kSubscriptionPolicy, nullptr, reply);
        }));
        QVERIFY(settle(open));
        QVERIFY(!open.page->banner()->isHidden());
        open.page->banner()->findChild<QPushButton *>(QStringLiteral("reloadButton"))->click();
        QCOMPARE(QJsonDocument::fromJson(open.page->editor()->jsonText().toUtf8()),
                 QJsonDocument::fromJson(QByteArray::fromStdString(kSubscriptionPolicy)));
        QCOMPARE(effectiveRow(open.page->effectiveTable(), QStringLiteral("numRetries")).second,
                 QStringLiteral("subscription"));
    }

    void controls_labelledForScreenReaders()
    {
        QVERIFY(bench().createTopic("events"));
        DeliveryPolicyPage page(bench().service(), bench().engine(), Entity::Topic, QStringLiteral("events"));
        QCOMPARE(accessibilityProblem(page), QString());
        QVERIFY(page.ownPolicyBox()->focusPolicy() != Qt::NoFocus);
    }
};

RELAYDESK_TEST_MAIN(DeliveryPolicyPageTest)
#include "delivery_policy_page_test.moc"
