// SPDX-License-Identifier: MIT
// Unit tests of BrokerError, brokerErrorInfo() and Result<T>. The expected
// codes and statuses are those of the SQS API (Smithy model awsQueryError
// traits), the SNS API reference and docs/behaviour.md §10.

#include "broker/broker_error.h"
#include "broker/result.h"
#include "support/test_main.h"

#include <QSet>
#include <QString>
#include <QtTest>

using namespace relaydesk;

Q_DECLARE_METATYPE(relaydesk::BrokerErrorCode)

class BrokerErrorTest final : public QObject {
    Q_OBJECT

private slots:
    void brokerErrorInfo_serviceCodes_matchAws_data();
    void brokerErrorInfo_serviceCodes_matchAws();
    void brokerErrorInfo_everyCode_isComplete();
    void brokerError_emptyMessage_takesDefault();
    void result_value_isOk();
    void result_error_carriesCodeAndMessage();
    void status_default_isOk();
};

void BrokerErrorTest::brokerErrorInfo_serviceCodes_matchAws_data()
{
    QTest::addColumn<BrokerErrorCode>("code");
    QTest::addColumn<QString>("jsonCode");
    QTest::addColumn<QString>("queryCode");
    QTest::addColumn<int>("httpStatus");

    QTest::newRow("QueueDoesNotExist") << BrokerErrorCode::QueueDoesNotExist << "QueueDoesNotExist"
                                       << "AWS.SimpleQueueService.NonExistentQueue" << 400;
    QTest::newRow("QueueAlreadyExists") << BrokerErrorCode::QueueAlreadyExists << "QueueNameExists"
                                        << "QueueAlreadyExists" << 400;
    QTest::newRow("ReceiptHandleIsInvalid") << BrokerErrorCode::ReceiptHandleIsInvalid << "ReceiptHandleIsInvalid"
                                            << "ReceiptHandleIsInvalid" << 404;
    QTest::newRow("TooManyEntriesInBatchRequest")
        << BrokerErrorCode::TooManyEntriesInBatchRequest << "TooManyEntriesInBatchRequest"
        << "AWS.SimpleQueueService.TooManyEntriesInBatchRequest" << 400;
    QTest::newRow("BatchEntryIdsNotDistinct") << BrokerErrorCode::BatchEntryIdsNotDistinct << "BatchEntryIdsNotDistinct"
                                              << "AWS.SimpleQueueService.BatchEntryIdsNotDistinct" << 400;
    QTest::newRow("EmptyBatchRequest") << BrokerErrorCode::EmptyBatchRequest << "EmptyBatchRequest"
                                       << "AWS.SimpleQueueService.EmptyBatchRequest" << 400;
    QTest::newRow("InvalidBatchEntryId") << BrokerErrorCode::InvalidBatchEntryId << "InvalidBatchEntryId"
                                         << "AWS.SimpleQueueService.InvalidBatchEntryId" << 400;
    QTest::newRow("BatchRequestTooLong") << BrokerErrorCode::BatchRequestTooLong << "BatchRequestTooLong"
                                         << "AWS.SimpleQueueService.BatchRequestTooLong" << 400;
    QTest::newRow("PurgeQueueInProgress") << BrokerErrorCode::PurgeQueueInProgress << "PurgeQueueInProgress"
                                          << "AWS.SimpleQueueService.PurgeQueueInProgress" << 403;
    QTest::newRow("MessageNotInflight") << BrokerErrorCode::MessageNotInflight << "MessageNotInflight"
                                        << "AWS.SimpleQueueService.MessageNotInflight" << 400;
    QTest::newRow("QueueDeletedRecently") << BrokerErrorCode::QueueDeletedRecently << "QueueDeletedRecently"
                                          << "AWS.SimpleQueueService.QueueDeletedRecently" << 400;
    QTest::newRow("InvalidParameterValue") << BrokerErrorCode::InvalidParameterValue << "InvalidParameterValue"
                                           << "InvalidParameterValue" << 400;
    QTest::newRow("InvalidAttributeValue") << BrokerErrorCode::InvalidAttributeValue << "InvalidAttributeValue"
                                           << "InvalidAttributeValue" << 400;
    QTest::newRow("InvalidAttributeName") << BrokerErrorCode::InvalidAttributeName << "InvalidAttributeName"
                                          << "InvalidAttributeName" << 400;
    QTest::newRow("InvalidMessageContents") << BrokerErrorCode::InvalidMessageContents << "InvalidMessageContents"
                                            << "InvalidMessageContents" << 400;
    QTest::newRow("MissingParameter") << BrokerErrorCode::MissingParameter << "MissingParameter" << "MissingParameter"
                                      << 400;
    QTest::newRow("OverLimit") << BrokerErrorCode::OverLimit << "OverLimit" << "OverLimit" << 403;
    QTest::newRow("SNS InvalidParameter") << BrokerErrorCode::SnsInvalidParameter << "InvalidParameter"
                                          << "InvalidParameter" << 400;
    QTest::newRow("SNS ParameterValueInvalid") << BrokerErrorCode::SnsInvalidParameterValue << "ParameterValueInvalid"
                                               << "ParameterValueInvalid" << 400;
    QTest::newRow("SNS NotFound") << BrokerErrorCode::SnsNotFound << "NotFound" << "NotFound" << 404;
    QTest::newRow("SNS FilterPolicyLimitExceeded") << BrokerErrorCode::SnsFilterPolicyLimitExceeded
                                                   << "FilterPolicyLimitExceeded" << "FilterPolicyLimitExceeded" << 403;
    QTest::newRow("SNS BatchEntryIdsNotDistinct") << BrokerErrorCode::SnsBatchEntryIdsNotDistinct
                                                  << "BatchEntryIdsNotDistinct" << "BatchEntryIdsNotDistinct" << 400;
}

void BrokerErrorTest::brokerErrorInfo_serviceCodes_matchAws()
{
    QFETCH(BrokerErrorCode, code);
    QFETCH(QString, jsonCode);
    QFETCH(QString, queryCode);
    QFETCH(int, httpStatus);

    const BrokerErrorInfo &info = brokerErrorInfo(code);
    QCOMPARE(QString::fromUtf8(info.jsonCode.data(), qsizetype(info.jsonCode.size())), jsonCode);
    QCOMPARE(QString::fromUtf8(info.queryCode.data(), qsizetype(info.queryCode.size())), queryCode);
    QCOMPARE(info.httpStatus, httpStatus);
    QVERIFY(info.senderFault);
}

void BrokerErrorTest::brokerErrorInfo_everyCode_isComplete()
{
    QSet<QString> names;
    const int last = int(BrokerErrorCode::InternalError);
    for (int i = 0; i <= last; ++i) {
        const BrokerErrorInfo &info = brokerErrorInfo(BrokerErrorCode(i));
        const QString name = QString::fromUtf8(info.name.data(), qsizetype(info.name.size()));
        QVERIFY2(!name.isEmpty(), qPrintable(QStringLiteral("code %1 has no name").arg(i)));
        QVERIFY2(!names.contains(name), qPrintable(QStringLiteral("duplicate name %1").arg(name)));
        names.insert(name);
        QVERIFY2(!info.jsonCode.empty() && !info.queryCode.empty() && !info.defaultMessage.empty(), qPrintable(name));
        QVERIFY2(info.httpStatus >= 400 && info.httpStatus <= 599, qPrintable(name));
        QCOMPARE(name.startsWith(QLatin1String("Sns")), info.service == ErrorService::Sns);
    }
    QCOMPARE(brokerErrorInfo(BrokerErrorCode::InternalError).httpStatus, 500);
    QVERIFY(!brokerErrorInfo(BrokerErrorCode::InternalError).senderFault);
}

void BrokerErrorTest::brokerError_emptyMessage_takesDefault()
{
    const BrokerError plain(BrokerErrorCode::QueueDoesNotExist);
    QCOMPARE(QString::fromStdString(plain.message), QStringLiteral("The specified queue does not exist."));
    const BrokerError told(BrokerErrorCode::QueueDoesNotExist, "no queue named orders");
    QCOMPARE(QString::fromStdString(told.message), QStringLiteral("no queue named orders"));
    QCOMPARE(told.info().httpStatus, 400);
}

void BrokerErrorTest::result_value_isOk()
{
    Result<int> result = 42;
    QVERIFY(result.ok());
    QVERIFY(bool(result));
    QCOMPARE(result.value(), 42);
    QCOMPARE(*result, 42);
}

void BrokerErrorTest::result_error_carriesCodeAndMessage()
{
    Result<std::string> result = BrokerError(BrokerErrorCode::ReceiptHandleIsInvalid, "stale handle");
    QVERIFY(!result.ok());
    QCOMPARE(result.error().code, BrokerErrorCode::ReceiptHandleIsInvalid);
    QCOMPARE(QString::fromStdString(result.error().message), QStringLiteral("stale handle"));
}

void BrokerErrorTest::status_default_isOk()
{
    const Status ok;
    QVERIFY(ok.ok());
    const Status failed = BrokerError(BrokerErrorCode::InternalError);
    QVERIFY(!failed.ok());
    QCOMPARE(failed.error().code, BrokerErrorCode::InternalError);
}

RELAYDESK_TEST_MAIN(BrokerErrorTest)
#include "broker_error_test.moc"
