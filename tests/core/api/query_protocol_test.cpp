// SPDX-License-Identifier: MIT
// What a GET may carry on the query protocol (docs/behaviour.md §8.2.1): every action of
// docs/behaviour.md §8.2, row by row — those that change nothing and the two of a
// notification's URLs pass, the rest need a POST — and a refusal before the
// action runs comes in the shape of the action's service.
#include "api/query/query_protocol.h"
#include "support/test_main.h"

#include <QTest>

using namespace relaydesk;

class QueryProtocolTest final : public QObject {
    Q_OBJECT

private slots:
    void action_inUrlOnlyWhenItChangesNothing_data()
    {
        QTest::addColumn<QString>("action");
        QTest::addColumn<bool>("inUrl");
        for (const char *action : {"GetQueueUrl", "ListQueues", "GetQueueAttributes", "ListDeadLetterSourceQueues",
                                   "ListMessageMoveTasks", "ListQueueTags", "ListTopics", "GetTopicAttributes",
                                   "ListSubscriptions", "ListSubscriptionsByTopic", "GetSubscriptionAttributes",
                                   "ListTagsForResource", "ConfirmSubscription", "Unsubscribe"})
            QTest::newRow(action) << QString::fromLatin1(action) << true;
        // ReceiveMessage changes state too: the messages become invisible and their receive counts rise.
        for (const char *action : {"CreateQueue", "DeleteQueue", "SetQueueAttributes", "SendMessage", "SendMessageBatch",
                                   "ReceiveMessage", "DeleteMessage", "DeleteMessageBatch", "ChangeMessageVisibility",
                                   "ChangeMessageVisibilityBatch", "PurgeQueue", "StartMessageMoveTask",
                                   "CancelMessageMoveTask", "TagQueue", "UntagQueue", "CreateTopic", "DeleteTopic",
                                   "SetTopicAttributes", "Subscribe", "SetSubscriptionAttributes", "Publish",
                                   "PublishBatch", "TagResource", "UntagResource"})
            QTest::newRow(action) << QString::fromLatin1(action) << false;
    }
    void action_inUrlOnlyWhenItChangesNothing()
    {
        QFETCH(QString, action);
        QFETCH(bool, inUrl);
        QCOMPARE(queryActionAllowedInUrl(action.toStdString()), inUrl);
    }

    void refusal_inTheShapeOfTheActionsService_data()
    {
        QTest::addColumn<QByteArray>("form");
        QTest::addColumn<QByteArray>("authorization");
        QTest::addColumn<QString>("xmlNamespace");
        const QString sqs = QStringLiteral("http://queue.amazonaws.com/doc/2012-11-05/");
        const QString sns = QStringLiteral("http://sns.amazonaws.com/doc/2010-03-31/");
        QTest::newRow("SQS action") << QByteArray("Action=PurgeQueue&QueueUrl=q") << QByteArray() << sqs;
        QTest::newRow("SNS action") << QByteArray("Action=Publish&TopicArn=t") << QByteArray() << sns;
        QTest::newRow("unknown, unsigned") << QByteArray("Action=Nope") << QByteArray() << sqs;
        QTest::newRow("unknown, signed for SNS")
            << QByteArray("Action=Nope") << QByteArray("AWS4-HMAC-SHA256 Credential=k/20260101/us-east-1/sns/aws4_request")
            << sns;
    }
    void refusal_inTheShapeOfTheActionsService()
    {
        QFETCH(QByteArray, form);
        QFETCH(QByteArray, authorization);
        QFETCH(QString, xmlNamespace);
        const HttpReply reply = queryErrorReplyFor(form, authorization, WireError::accessDenied("no"));
        QCOMPARE(reply.status, 403);
        QVERIFY2(reply.body.contains("<Code>AccessDenied</Code>"), reply.body.constData());
        QVERIFY2(reply.body.contains(xmlNamespace.toUtf8()), reply.body.constData());
    }
};

RELAYDESK_TEST_MAIN(QueryProtocolTest)
#include "query_protocol_test.moc"
