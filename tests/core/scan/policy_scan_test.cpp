// SPDX-License-Identifier: MIT
// `policy scan` as a table (docs/policies.md, "policy scan"): a template
// fragment => the policies found (name, form, valid, place) => the rule ids of
// their findings. A new resource type or rule is one row.

#include "scan/policy_scan.h"

#include "support/test_main.h"

#include <QtTest>

using namespace relaydesk;

namespace {

struct Expected {
    std::string name;
    std::string form;
    bool valid;
    int line;
    std::vector<std::string> rules;   // in the order found
};

std::string describe(const ScanResult &result)
{
    std::string text;
    for (const FoundPolicy &policy : result.policies) {
        text += policy.name + " | " + policy.form + " | " + (policy.valid() ? "valid" : "invalid") + " | line " +
                std::to_string(policy.place.line) + " |";
        for (const ScanFinding &finding : policy.findings)
            text += " " + finding.rule;
        text += "\n";
    }
    return text;
}

std::string describe(const std::vector<Expected> &expected)
{
    std::string text;
    for (const Expected &policy : expected) {
        text += policy.name + " | " + policy.form + " | " + (policy.valid ? "valid" : "invalid") + " | line " +
                std::to_string(policy.line) + " |";
        for (const std::string &rule : policy.rules)
            text += " " + rule;
        text += "\n";
    }
    return text;
}

} // namespace

Q_DECLARE_METATYPE(std::vector<Expected>)

class PolicyScanTest final : public QObject {
    Q_OBJECT

private slots:
    void table_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<std::vector<Expected>>("expected");

        QTest::newRow("CloudFormation YAML: short tags, redrive of 1, GetAtt resolved in the template")
            << QStringLiteral("Resources:\n"
                              "  Q:\n"
                              "    Type: AWS::SQS::Queue\n"
                              "    Properties:\n"
                              "      RedrivePolicy:\n"
                              "        deadLetterTargetArn: !GetAtt Dlq.Arn\n"
                              "        maxReceiveCount: 1\n"
                              "  Dlq:\n"
                              "    Type: AWS::SQS::Queue\n")
            << std::vector<Expected>{{"Q", "SQS redrive policy", true, 6, {"max-receive-count-1"}}};
        QTest::newRow("CloudFormation JSON: a redrive as JSON text, its target a literal ARN not in the template")
            << QStringLiteral("{\"AWSTemplateFormatVersion\": \"2010-09-09\", \"Resources\": {\"Q\": {\"Type\": \"AWS::SQS::Queue\",\n"
                              "  \"Properties\": {\"RedrivePolicy\": \"{\\\"deadLetterTargetArn\\\": \\\"arn:aws:sqs:eu-west-1:1:elsewhere\\\", \\\"maxReceiveCount\\\": 5}\"}}}}")
            << std::vector<Expected>{{"Q", "SQS redrive policy", true, 2, {"dlq-target-missing"}}};
        QTest::newRow("CloudFormation: the whole policy an unresolved !Sub")
            << QStringLiteral("Resources:\n  T:\n    Type: AWS::SNS::Topic\n    Properties:\n"
                              "      DeliveryPolicy: !Sub '{\"http\": {\"defaultHealthyRetryPolicy\": {\"numRetries\": ${N}}}}'\n")
            << std::vector<Expected>{{"T", "SNS topic delivery policy", true, 5, {"unresolved-intrinsic"}}};
        QTest::newRow("CloudFormation: Fn::Join inside a policy, an invalid field beside it")
            << QStringLiteral("Resources:\n  S:\n    Type: AWS::SNS::Subscription\n    Properties:\n"
                              "      DeliveryPolicy:\n        healthyRetryPolicy:\n"
                              "          numRetries: !Join ['', ['1', '0']]\n          minDelayTarget: 0\n")
            << std::vector<Expected>{{"S", "SNS subscription delivery policy", false, 6,
                                      {"unresolved-intrinsic", "invalid-policy"}}};
        QTest::newRow("CloudFormation: a long retry span has no finding")
            << QStringLiteral("Resources:\n  T:\n    Type: AWS::SNS::Topic\n    Properties:\n"
                              "      DeliveryPolicy:\n        http:\n          defaultHealthyRetryPolicy:\n"
                              "            numRetries: 50\n            numMaxDelayRetries: 40\n"
                              "            minDelayTarget: 20\n            maxDelayTarget: 60\n")
            << std::vector<Expected>{{"T", "SNS topic delivery policy", true, 6, {}}};
        QTest::newRow("Terraform plan: planned values in a child module, a value known after apply")
            << QStringLiteral("{\"format_version\": \"1.2\", \"planned_values\": {\"root_module\": {\"child_modules\": [{\"resources\": [\n"
                              "  {\"address\": \"module.sns.aws_sns_topic.this\", \"type\": \"aws_sns_topic\", \"values\": {\"name\": \"t\",\n"
                              "   \"delivery_policy\": \"{\\\"http\\\": {\\\"defaultHealthyRetryPolicy\\\": {\\\"numRetries\\\": 3}}}\"}},\n"
                              "  {\"address\": \"module.sqs.aws_sqs_queue.this\", \"type\": \"aws_sqs_queue\", \"values\": {\"name\": \"q\"}}]}]}},\n"
                              " \"resource_changes\": [{\"address\": \"module.sqs.aws_sqs_queue.this\", \"type\": \"aws_sqs_queue\",\n"
                              "   \"change\": {\"after\": {\"name\": \"q\"}, \"after_unknown\": {\"redrive_policy\": true}}}]}")
            << std::vector<Expected>{{"module.sns.aws_sns_topic.this", "SNS topic delivery policy", true, 3, {"retry-span-short"}},
                                     {"module.sqs.aws_sqs_queue.this", "SQS redrive policy", true, 4, {"unresolved-intrinsic"}}};
        QTest::newRow("Terraform plan with its configuration: a redrive the configuration does not set is the provider's, not a policy")
            << QStringLiteral("{\"format_version\": \"1.2\", \"planned_values\": {\"root_module\": {\"child_modules\": [{\"resources\": [\n"
                              "  {\"address\": \"module.q.aws_sqs_queue.this[0]\", \"type\": \"aws_sqs_queue\", \"values\": {\"name\": \"q\"}},\n"
                              "  {\"address\": \"module.q.aws_sqs_queue_redrive_policy.this[0]\", \"type\": \"aws_sqs_queue_redrive_policy\", \"values\": {}}]}]}},\n"
                              " \"resource_changes\": [\n"
                              "  {\"address\": \"module.q.aws_sqs_queue.this[0]\", \"change\": {\"after_unknown\": {\"redrive_policy\": true}}},\n"
                              "  {\"address\": \"module.q.aws_sqs_queue_redrive_policy.this[0]\", \"change\": {\"after_unknown\": {\"redrive_policy\": true}}}],\n"
                              " \"configuration\": {\"root_module\": {\"module_calls\": {\"q\": {\"module\": {\"resources\": [\n"
                              "  {\"address\": \"aws_sqs_queue.this\", \"expressions\": {\"name\": {\"constant_value\": \"q\"}}},\n"
                              "  {\"address\": \"aws_sqs_queue_redrive_policy.this\", \"expressions\": {\"redrive_policy\": {\"references\": [\"var.r\"]}}}]}}}}}}")
            << std::vector<Expected>{{"module.q.aws_sqs_queue_redrive_policy.this[0]", "SQS redrive policy", true, 3,
                                      {"unresolved-intrinsic"}}};
        QTest::newRow("ARM: nested subscription, parameters resolved, TTL under the lock")
            << QStringLiteral("{\"$schema\": \"https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#\",\n"
                              " \"parameters\": {\"lock\": {\"type\": \"string\", \"defaultValue\": \"PT2M\"}},\n"
                              " \"resources\": [{\"type\": \"Microsoft.ServiceBus/namespaces/topics\", \"name\": \"ns/events\", \"resources\": [\n"
                              "   {\"type\": \"subscriptions\", \"name\": \"audit\", \"properties\": {\"lockDuration\": \"[parameters('lock')]\",\n"
                              "    \"defaultMessageTimeToLive\": \"PT30S\", \"maxDeliveryCount\": 1}}]}]}")
            << std::vector<Expected>{{"events/Subscriptions/audit", "Service Bus subscription", true, 4,
                                      {"ttl-shorter-than-lock", "max-receive-count-1"}}};
        QTest::newRow("ARM: every bad property at its field, an unresolved expression noted")
            << QStringLiteral("{\"contentVersion\": \"1.0.0.0\", \"resources\": [{\"type\": \"Microsoft.ServiceBus/namespaces/queues\",\n"
                              " \"name\": \"[concat('ns', '/', 'orders')]\", \"properties\": {\"lockDuration\": \"PT10M\", \"maxDeliveryCount\": 0,\n"
                              " \"defaultMessageTimeToLive\": \"[parameters('missing')]\"}}]}")
            << std::vector<Expected>{{"orders", "Service Bus queue", false, 1,
                                      {"unresolved-intrinsic", "invalid-policy", "invalid-policy"}}};
        QTest::newRow("ARM as Bicep writes it: a name by format() of literals and a parameter's default")
            << QStringLiteral("{\"contentVersion\": \"1.0.0.0\", \"parameters\": {\"q\": {\"type\": \"string\", \"defaultValue\": \"orders\"}},\n"
                              " \"resources\": [{\"type\": \"Microsoft.ServiceBus/namespaces/queues\", \"name\": \"[format('{0}/{1}', 'ns', parameters('q'))]\",\n"
                              " \"properties\": {\"lockDuration\": \"PT5M\", \"maxDeliveryCount\": 10}}]}")
            << std::vector<Expected>{{"orders", "Service Bus queue", true, 2, {}}};
        QTest::newRow("ARM: a name from a parameter without a default is noted, its properties still checked")
            << QStringLiteral("{\"contentVersion\": \"1.0.0.0\", \"parameters\": {\"q\": {\"type\": \"string\"}},\n"
                              " \"resources\": [{\"type\": \"Microsoft.ServiceBus/namespaces/queues\", \"name\": \"[format('{0}/{1}', 'ns', parameters('q'))]\",\n"
                              " \"properties\": {\"lockDuration\": \"PT5M\", \"maxDeliveryCount\": 1}}]}")
            << std::vector<Expected>{{"[format('{0}/{1}', 'ns', parameters('q'))]", "Service Bus queue", true, 2,
                                      {"unresolved-intrinsic", "max-receive-count-1"}}};
        QTest::newRow("ARM: resource types without case, \"Subscriptions\" nested under \"topics\" (Azure's quickstarts)")
            << QStringLiteral("{\"contentVersion\": \"1.0.0.0\", \"resources\": [{\"type\": \"Microsoft.ServiceBus/namespaces\", \"name\": \"ns\",\n"
                              " \"resources\": [{\"type\": \"topics\", \"name\": \"events\", \"resources\": [\n"
                              "  {\"type\": \"Subscriptions\", \"name\": \"audit\", \"properties\": {\"lockDuration\": \"PT1M\", \"maxDeliveryCount\": 10}}]}]}]}")
            << std::vector<Expected>{{"events/Subscriptions/audit", "Service Bus subscription", true, 3, {}}};
        QTest::newRow("Heat: Zaqar queue metadata, a dead-letter queue of the template")
            << QStringLiteral("heat_template_version: 2018-08-31\nresources:\n  jobs:\n    type: OS::Zaqar::Queue\n"
                              "    properties:\n      metadata:\n        _max_claim_count: 3\n"
                              "        _dead_letter_queue: jobs-dlq\n  dlq:\n    type: OS::Zaqar::Queue\n"
                              "    properties:\n      name: jobs-dlq\n")
            << std::vector<Expected>{{"jobs", "Zaqar dead-letter queue", true, 7, {}}};
        QTest::newRow("Zaqar queue metadata file: a retry policy")
            << QStringLiteral("{\"_retry_policy\": {\"retries_with_no_delay\": 1, \"minimum_delay\": 5, \"maximum_delay\": 5}}")
            << std::vector<Expected>{{"t.json", "Zaqar retry policy", true, 1, {"retry-span-short"}}};
        QTest::newRow("Config.json: a subscription forwarding dead letters to a queue of the file")
            << QStringLiteral("{\"UserConfig\": {\"Namespaces\": [{\"Name\": \"sbemulatorns\", \"Queues\": [{\"Name\": \"dlq\", \"Properties\": {}}],\n"
                              " \"Topics\": [{\"Name\": \"t\", \"Subscriptions\": [{\"Name\": \"s\", \"Properties\": {\"ForwardDeadLetteredMessagesTo\": \"dlq\",\n"
                              " \"DeadLetteringOnFilterEvaluationExceptions\": false}}]}]}]}}")
            << std::vector<Expected>{{"dlq", "Service Bus queue", true, 1, {}},
                                     {"t/Subscriptions/s", "Service Bus subscription", true, 2, {}}};
        QTest::newRow("a plain policy file")
            << QStringLiteral("{\"healthyRetryPolicy\": {\"numRetries\": 200}}")
            << std::vector<Expected>{{"t.json", "SNS subscription delivery policy", false, 1, {"invalid-policy", "invalid-policy"}}};
        QTest::newRow("neither template nor policy") << QStringLiteral("just: yaml\n") << std::vector<Expected>{};
        QTest::newRow("not JSON, not YAML") << QStringLiteral("{\"a\": ") << std::vector<Expected>{};
    }

    void table()
    {
        QFETCH(QString, text);
        QFETCH(std::vector<Expected>, expected);
        ScanResult result;
        scanText(text.toStdString(), "t.json", "t.json", ScanOptions{}, result);
        const std::string actual = describe(result);
        QVERIFY2(actual == describe(expected), ("\nactual:\n" + actual + "expected:\n" + describe(expected)).c_str());
    }

    // Columns count characters; findings sit at their field.
    void findingAtItsField()
    {
        ScanResult result;
        scanText("Resources:\n  Q:\n    Type: AWS::SQS::Queue\n    Properties:\n      RedrivePolicy:\n"
                 "        maxReceiveCount: 1\n        deadLetterTargetArn: !GetAtt Q2.Arn\n  Q2: {Type: AWS::SQS::Queue}\n",
                 "t.yaml", "t.yaml", ScanOptions{}, result);
        QCOMPARE(result.policies.size(), std::size_t(1));
        QCOMPARE(result.policies[0].findings.size(), std::size_t(1));
        QCOMPARE(result.policies[0].findings[0].place, (TextPlace{6, 26}));
    }

    void expectedOutageIsTheThreshold()
    {
        const std::string text = "{\"healthyRetryPolicy\": {\"numRetries\": 3, \"minDelayTarget\": 20, \"maxDelayTarget\": 20}}";
        ScanResult shortOutage;
        scanText(text, "p.json", "p.json", ScanOptions{60}, shortOutage);
        QVERIFY(shortOutage.policies.at(0).findings.empty());
        ScanResult longOutage;
        scanText(text, "p.json", "p.json", ScanOptions{61}, longOutage);
        QCOMPARE(longOutage.policies.at(0).findings.at(0).rule, std::string("retry-span-short"));
    }
};

RELAYDESK_TEST_MAIN(PolicyScanTest)
#include "policy_scan_test.moc"
