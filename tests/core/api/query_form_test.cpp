// SPDX-License-Identifier: MIT
// The query protocol's flattened parameters in the JSON protocol's shape.
#include "api/query/query_form.h"
#include "support/test_main.h"

#include <QTest>

using relaydesk::QueryService;
using Json = nlohmann::json;

Q_DECLARE_METATYPE(QueryService)

class QueryFormTest final : public QObject {
    Q_OBJECT

private slots:
    void form_becomesJsonShape_data()
    {
        QTest::addColumn<QueryService>("service");
        QTest::addColumn<QByteArray>("form");
        QTest::addColumn<QString>("action");
        QTest::addColumn<QString>("json");

        QTest::newRow("plain members, Version dropped")
            << QueryService::Sqs << QByteArray("Action=SendMessage&Version=2012-11-05&QueueUrl=http%3A%2F%2Fh%2F1%2Fq&MessageBody=a+b%2Bc")
            << "SendMessage" << R"({"QueueUrl":"http://h/1/q","MessageBody":"a b+c"})";
        QTest::newRow("attribute map")
            << QueryService::Sqs << QByteArray("Action=CreateQueue&QueueName=q&Attribute.1.Name=DelaySeconds&Attribute.1.Value=5&Attribute.2.Name=VisibilityTimeout&Attribute.2.Value=9")
            << "CreateQueue" << R"({"QueueName":"q","Attributes":{"DelaySeconds":"5","VisibilityTimeout":"9"}})";
        QTest::newRow("lists ordered by index, gaps skipped")
            << QueryService::Sqs << QByteArray("Action=ReceiveMessage&AttributeName.3=C&AttributeName.1=A&MessageAttributeName.1=All")
            << "ReceiveMessage" << R"({"AttributeNames":["A","C"],"MessageAttributeNames":["All"]})";
        QTest::newRow("message attributes")
            << QueryService::Sqs << QByteArray("Action=SendMessage&MessageAttribute.1.Name=k&MessageAttribute.1.Value.DataType=String&MessageAttribute.1.Value.StringValue=v")
            << "SendMessage" << R"({"MessageAttributes":{"k":{"DataType":"String","StringValue":"v"}}})";
        QTest::newRow("batch entries with nested attributes")
            << QueryService::Sqs << QByteArray("Action=SendMessageBatch&SendMessageBatchRequestEntry.1.Id=a&SendMessageBatchRequestEntry.1.MessageBody=x&SendMessageBatchRequestEntry.2.Id=b&SendMessageBatchRequestEntry.2.MessageBody=y&SendMessageBatchRequestEntry.2.MessageAttribute.1.Name=n&SendMessageBatchRequestEntry.2.MessageAttribute.1.Value.DataType=Number&SendMessageBatchRequestEntry.2.MessageAttribute.1.Value.StringValue=1")
            << "SendMessageBatch" << R"({"Entries":[{"Id":"a","MessageBody":"x"},{"Id":"b","MessageBody":"y","MessageAttributes":{"n":{"DataType":"Number","StringValue":"1"}}}]})";
        QTest::newRow("sqs tags and tag keys")
            << QueryService::Sqs << QByteArray("Action=TagQueue&Tag.1.Key=team&Tag.1.Value=core&TagKey.1=old")
            << "TagQueue" << R"({"Tags":{"team":"core"},"TagKeys":["old"]})";
        QTest::newRow("sns attribute entries")
            << QueryService::Sns << QByteArray("Action=CreateTopic&Name=t&Attributes.entry.1.key=FifoTopic&Attributes.entry.1.value=true")
            << "CreateTopic" << R"({"Name":"t","Attributes":{"FifoTopic":"true"}})";
        QTest::newRow("sns tags and publish batch")
            << QueryService::Sns << QByteArray("Action=PublishBatch&Tags.member.1.Key=k&Tags.member.1.Value=v&PublishBatchRequestEntries.member.1.Id=a&PublishBatchRequestEntries.member.1.Message=m&PublishBatchRequestEntries.member.1.MessageAttributes.entry.1.Name=x&PublishBatchRequestEntries.member.1.MessageAttributes.entry.1.Value.DataType=String&PublishBatchRequestEntries.member.1.MessageAttributes.entry.1.Value.StringValue=y")
            << "PublishBatch" << R"({"Tags":[{"Key":"k","Value":"v"}],"PublishBatchRequestEntries":[{"Id":"a","Message":"m","MessageAttributes":{"x":{"DataType":"String","StringValue":"y"}}}]})";
        QTest::newRow("no action")
            << QueryService::Sqs << QByteArray("QueueName=q") << "" << R"({"QueueName":"q"})";
        QTest::newRow("bytes kept as sent: invalid UTF-8 and U+FFFE")
            << QueryService::Sqs << QByteArray("Action=SendMessage&MessageBody=%FF%FEab&MessageAttribute.1.Name=k&MessageAttribute.1.Value.DataType=String&MessageAttribute.1.Value.StringValue=%EF%BF%BE")
            << "SendMessage" << QString()   // compared byte for byte below
            ;
        QTest::newRow("batch entries do not nest")
            << QueryService::Sqs << QByteArray("Action=SendMessageBatch&SendMessageBatchRequestEntry.1.SendMessageBatchRequestEntry.1.Id=a")
            << "SendMessageBatch" << R"({"Entries":[{"SendMessageBatchRequestEntry.1.Id":"a"}]})";
        QTest::newRow("malformed index kept as a plain member")
            << QueryService::Sqs << QByteArray("Action=X&Attribute.x.Name=a") << "X" << R"({"Attribute.x.Name":"a"})";
    }

    void form_becomesJsonShape()
    {
        QFETCH(QueryService, service);
        QFETCH(QByteArray, form);
        QFETCH(QString, action);
        QFETCH(QString, json);
        std::string gotAction;
        const Json got = relaydesk::queryFormToJson(form, service, gotAction);
        QCOMPARE(QString::fromStdString(gotAction), action);
        if (json.isEmpty()) {
            QCOMPARE(QByteArray::fromStdString(got["MessageBody"].get<std::string>()), QByteArray("\xFF\xFE" "ab"));
            QCOMPARE(QByteArray::fromStdString(got["MessageAttributes"]["k"]["StringValue"].get<std::string>()),
                     QByteArray("\xEF\xBF\xBE"));
            return;
        }
        QCOMPARE(QString::fromStdString(got.dump()), QString::fromStdString(Json::parse(json.toStdString()).dump()));
    }
};

RELAYDESK_TEST_MAIN(QueryFormTest)
#include "query_form_test.moc"
