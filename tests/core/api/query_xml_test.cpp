// SPDX-License-Identifier: MIT
// The query protocol's XML replies, read back with QXmlStreamReader.
#include "api/query/query_xml.h"
#include "support/test_main.h"

#include <QTest>
#include <QXmlStreamReader>

using relaydesk::QueryService;
using Json = nlohmann::json;

namespace {

// The element paths and texts of a document: "A/B/C=text" per leaf.
QStringList leaves(const QByteArray &xml)
{
    QStringList out;
    QStringList path;
    QString text;
    QXmlStreamReader reader(xml);
    while (!reader.atEnd()) {
        reader.readNext();
        if (reader.isStartElement()) {
            path << reader.name().toString();
            text.clear();
        } else if (reader.isCharacters()) {
            text += reader.text();
        } else if (reader.isEndElement()) {
            if (!text.isEmpty())
                out << path.join(QLatin1Char('/')) + QLatin1Char('=') + text;
            text.clear();
            path.removeLast();
        }
    }
    return reader.hasError() ? QStringList{QStringLiteral("XML error: ") + reader.errorString()} : out;
}

} // namespace

class QueryXmlTest final : public QObject {
    Q_OBJECT

private slots:
    void sqsReceive_flattensMessagesAttributesAndMessageAttributes()
    {
        const Json result = {{"Messages", {{{"MessageId", "m1"}, {"Body", "a<b&c"},
                                            {"Attributes", {{"SentTimestamp", "5"}}},
                                            {"MessageAttributes", {{"k", {{"DataType", "String"}, {"StringValue", "v"}}}}}}}}};
        QStringList got = leaves(relaydesk::queryXmlReply(QueryService::Sqs, "ReceiveMessage", result, "rid"));
        QStringList expected = {
            "ReceiveMessageResponse/ReceiveMessageResult/Message/MessageId=m1",
            "ReceiveMessageResponse/ReceiveMessageResult/Message/Body=a<b&c",
            "ReceiveMessageResponse/ReceiveMessageResult/Message/Attribute/Name=SentTimestamp",
            "ReceiveMessageResponse/ReceiveMessageResult/Message/Attribute/Value=5",
            "ReceiveMessageResponse/ReceiveMessageResult/Message/MessageAttribute/Name=k",
            "ReceiveMessageResponse/ReceiveMessageResult/Message/MessageAttribute/Value/DataType=String",
            "ReceiveMessageResponse/ReceiveMessageResult/Message/MessageAttribute/Value/StringValue=v",
            "ReceiveMessageResponse/ResponseMetadata/RequestId=rid",
        };
        got.sort();   // element order within a structure does not matter to the SDKs
        expected.sort();
        QCOMPARE(got, expected);
    }

    void sqsBatch_namesEntriesAfterTheAction()
    {
        const Json result = {{"Successful", {{{"Id", "a"}, {"MessageId", "m"}}}},
                             {"Failed", {{{"Id", "b"}, {"Code", "X"}, {"SenderFault", true}}}}};
        const QStringList got = leaves(relaydesk::queryXmlReply(QueryService::Sqs, "SendMessageBatch", result, "r"));
        QVERIFY(got.contains("SendMessageBatchResponse/SendMessageBatchResult/SendMessageBatchResultEntry/Id=a"));
        QVERIFY(got.contains("SendMessageBatchResponse/SendMessageBatchResult/BatchResultErrorEntry/SenderFault=true"));
    }

    void emptyResult_stillHasTheResultElement()
    {
        const QByteArray xml = relaydesk::queryXmlReply(QueryService::Sqs, "ReceiveMessage", Json::object(), "r");
        QVERIFY(xml.contains("<ReceiveMessageResult></ReceiveMessageResult>") || xml.contains("<ReceiveMessageResult/>"));
    }

    void sns_wrapsListsInMembersAndMapsInEntries()
    {
        const Json result = {{"Topics", {{{"TopicArn", "arn:1"}}, {{"TopicArn", "arn:2"}}}},
                             {"Attributes", {{"Owner", "0"}}}};
        const QStringList got = leaves(relaydesk::queryXmlReply(QueryService::Sns, "ListTopics", result, "r"));
        QVERIFY(got.contains("ListTopicsResponse/ListTopicsResult/Topics/member/TopicArn=arn:2"));
        QVERIFY(got.contains("ListTopicsResponse/ListTopicsResult/Attributes/entry/key=Owner"));
        QVERIFY(got.contains("ListTopicsResponse/ListTopicsResult/Attributes/entry/value=0"));
    }

    void carriageReturns_surviveAnXmlParser()
    {
        const Json result = {{"Messages", {{{"Body", "a\r\nb\rc"}}}}};
        const QByteArray xml = relaydesk::queryXmlReply(QueryService::Sqs, "ReceiveMessage", result, "r");
        QVERIFY(leaves(xml).contains("ReceiveMessageResponse/ReceiveMessageResult/Message/Body=a\r\nb\rc"));
    }

    void namespaces_perService()
    {
        QVERIFY(relaydesk::queryXmlReply(QueryService::Sqs, "A", Json::object(), "r").contains("http://queue.amazonaws.com/doc/2012-11-05/"));
        QVERIFY(relaydesk::queryXmlReply(QueryService::Sns, "A", Json::object(), "r").contains("http://sns.amazonaws.com/doc/2010-03-31/"));
    }
};

RELAYDESK_TEST_MAIN(QueryXmlTest)
#include "query_xml_test.moc"
