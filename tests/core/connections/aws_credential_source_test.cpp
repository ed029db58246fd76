// SPDX-License-Identifier: MIT
// credential_process as the AWS CLI runs it (core/connections/aws_credential_source.h):
// its command line split as a POSIX shell splits it, and its output read.
#include "connections/aws_credential_source.h"
#include "support/test_main.h"

#include <QTest>

using namespace relaydesk;

class AwsCredentialSourceTest : public QObject {
    Q_OBJECT
private slots:
    void commandWords_data();
    void commandWords();
    void processOutput_data();
    void processOutput();
};

void AwsCredentialSourceTest::commandWords_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<QStringList>("words");
    QTest::newRow("plain") << "/usr/bin/helper --profile dev" << QStringList{"/usr/bin/helper", "--profile", "dev"};
    QTest::newRow("runs of spaces") << "  a   b  " << QStringList{"a", "b"};
    QTest::newRow("single quotes keep everything") << R"(echo '{"Version": 1, "A": "\x"}')"
                                                   << QStringList{"echo", R"({"Version": 1, "A": "\x"})"};
    QTest::newRow("double quotes with escapes") << R"(say "my \"team\" \\ \$HOME \n")"
                                                << QStringList{"say", R"(my "team" \ $HOME \n)"};
    QTest::newRow("quotes join a word") << R"(--name=a' 'b"c d")" << QStringList{"--name=a bc d"};
    QTest::newRow("backslash outside quotes") << R"(a\ b c)" << QStringList{"a b", "c"};
    QTest::newRow("an empty quoted word") << "tool ''" << QStringList{"tool", ""};
    QTest::newRow("empty") << "" << QStringList{};
}

void AwsCredentialSourceTest::commandWords()
{
    QFETCH(QString, command);
    QFETCH(QStringList, words);
    QCOMPARE(AwsCredentialSource::commandWords(command), words);
}

void AwsCredentialSourceTest::processOutput_data()
{
    QTest::addColumn<QByteArray>("output");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("keyId");
    QTest::addColumn<QString>("token");
    QTest::addColumn<QString>("expiration");
    QTest::newRow("static") << QByteArray(R"({"Version": 1, "AccessKeyId": "AK", "SecretAccessKey": "SK"})") << true
                            << "AK" << "" << "";
    QTest::newRow("temporary") << QByteArray(R"({"Version": 1, "AccessKeyId": "AK", "SecretAccessKey": "SK",
                                "SessionToken": "T", "Expiration": "2026-11-28T18:00:00Z"})")
                               << true << "AK" << "T" << "2026-11-28T18:00:00Z";
    QTest::newRow("version 2") << QByteArray(R"({"Version": 2, "AccessKeyId": "AK", "SecretAccessKey": "SK"})") << false
                               << "" << "" << "";
    QTest::newRow("no secret") << QByteArray(R"({"Version": 1, "AccessKeyId": "AK"})") << false << "" << "" << "";
    QTest::newRow("not JSON") << QByteArray("AK SK") << false << "" << "" << "";
}

void AwsCredentialSourceTest::processOutput()
{
    QFETCH(QByteArray, output);
    QFETCH(bool, ok);
    QFETCH(QString, keyId);
    QFETCH(QString, token);
    QFETCH(QString, expiration);
    std::optional<QDateTime> expires;
    const ConnectionResult<AwsCredentials> read = AwsCredentialSource::readProcessOutput(output, &expires);
    QCOMPARE(read.ok, ok);
    QCOMPARE(read.value.accessKeyId, keyId);
    QCOMPARE(read.value.sessionToken, token);
    if (ok)
        QCOMPARE(expires ? expires->toUTC().toString(Qt::ISODate) : QString(), expiration);
    else
        QCOMPARE(read.error.code, QStringLiteral("CredentialProcessOutput"));
}

RELAYDESK_TEST_MAIN(AwsCredentialSourceTest)
#include "aws_credential_source_test.moc"
