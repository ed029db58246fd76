// SPDX-License-Identifier: MIT
// The AWS shared config and credentials files as the AWS CLI reads them, and
// adding a profile to them without disturbing the rest (core/connections/aws_profiles.h,
// aws_profile_writer.h): data-driven tables.
#include "connections/aws_profile_writer.h"
#include "connections/aws_profiles.h"
#include "support/test_main.h"

#include <QTemporaryDir>
#include <QTest>

using namespace relaydesk;

namespace {

// "name|region|endpoint_url|sqs endpoint|key id|secret|token|credential_process"
QString describe(const AwsProfile &p)
{
    return QStringList{p.name, p.region, p.endpointUrl, p.serviceEndpoints.value(QStringLiteral("sqs")), p.accessKeyId,
                       p.secretAccessKey, p.sessionToken, p.credentialProcess}
        .join(QLatin1Char('|'));
}

QString readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

} // namespace

class AwsProfilesTest : public QObject {
    Q_OBJECT
private slots:
    void readsProfiles_data();
    void readsProfiles();
    void endpoints_data();
    void endpoints();
    void addsProfile_data();
    void addsProfile();
    void writesFiles();
};

void AwsProfilesTest::readsProfiles_data()
{
    QTest::addColumn<QString>("config");
    QTest::addColumn<QString>("credentials");
    QTest::addColumn<QStringList>("profiles");   // describe() of each, in order
    QTest::addColumn<int>("problems");

    QTest::newRow("default in both files")
        << "[default]\nregion = eu-west-3\n" << "[default]\naws_access_key_id = AKID\naws_secret_access_key = S\n"
        << QStringList{"default|eu-west-3|||AKID|S||"} << 0;
    QTest::newRow("[profile NAME] in config, [NAME] in credentials")
        << "# mine\n[profile dev]\nregion=us-east-2\nendpoint_url = http://localhost:9911\n"
        << "[dev]\naws_access_key_id=AK\naws_secret_access_key=SK\naws_session_token=TOK\n"
        << QStringList{"dev|us-east-2|http://localhost:9911||AK|SK|TOK|"} << 0;
    QTest::newRow("credentials win over config for the same key")
        << "[profile p]\naws_access_key_id = FROMCONFIG\naws_secret_access_key = C\n"
        << "[p]\naws_access_key_id = FROMCREDENTIALS\n" << QStringList{"p||||FROMCREDENTIALS|C||"} << 0;
    QTest::newRow("a profile only in credentials")
        << "" << "[ci]\naws_access_key_id = A\naws_secret_access_key = B\n" << QStringList{"ci||||A|B||"} << 0;
    QTest::newRow("credential_process keeps its arguments")
        << "[profile sso]\ncredential_process = /usr/bin/get-creds --profile \"my team\"\n" << ""
        << QStringList{"sso|||||||/usr/bin/get-creds --profile \"my team\""} << 0;
    QTest::newRow("services section gives SQS its own endpoint")
        << "[profile local]\nregion = us-east-1\nservices = local-sqs\n\n[services local-sqs]\nsqs =\n"
           "  endpoint_url = http://127.0.0.1:4567\nsns =\n  endpoint_url = http://127.0.0.1:9911\n"
        << "" << QStringList{"local|us-east-1||http://127.0.0.1:4567||||"} << 0;
    QTest::newRow("comments with ; and #, blank lines, sso-session ignored")
        << "; top\n\n[sso-session corp]\nsso_region = us-east-1\n# again\n[profile a]\nregion = ap-south-1\n" << ""
        << QStringList{"a|ap-south-1||||||"} << 0;
    QTest::newRow("order of first appearance, config first")
        << "[profile b]\n[profile a]\n" << "[c]\n[a]\n" << QStringList{"b|||||||", "a|||||||", "c|||||||"} << 0;
    QTest::newRow("a header without ] and a line outside a section are problems")
        << "region = x\n[profile broken\n[profile ok]\n" << "" << QStringList{"ok|||||||"} << 2;
    QTest::newRow("services naming a missing section is a problem")
        << "[profile p]\nservices = nowhere\n" << "" << QStringList{"p|||||||"} << 1;
}

void AwsProfilesTest::readsProfiles()
{
    QFETCH(QString, config);
    QFETCH(QString, credentials);
    QFETCH(QStringList, profiles);
    QFETCH(int, problems);
    const AwsProfileList list = readAwsProfiles(config, credentials);
    QStringList described;
    for (const AwsProfile &profile : list.profiles)
        described << describe(profile);
    QCOMPARE(described, profiles);
    QCOMPARE(list.problems.size(), problems);
}

void AwsProfilesTest::endpoints_data()
{
    QTest::addColumn<QString>("config");
    QTest::addColumn<QString>("service");
    QTest::addColumn<QString>("endpoint");
    QTest::newRow("AWS's own by region") << "[default]\nregion = eu-west-3\n" << "sqs" << "https://sqs.eu-west-3.amazonaws.com";
    QTest::newRow("no region: us-east-1") << "[default]\n" << "sns" << "https://sns.us-east-1.amazonaws.com";
    QTest::newRow("endpoint_url for every service")
        << "[default]\nendpoint_url = http://localhost:9911\n" << "sns" << "http://localhost:9911";
    QTest::newRow("the service's own endpoint wins")
        << "[default]\nendpoint_url = http://a\nservices = s\n[services s]\nsqs =\n  endpoint_url = http://b\n" << "sqs"
        << "http://b";
    QTest::newRow("another service keeps the profile's")
        << "[default]\nendpoint_url = http://a\nservices = s\n[services s]\nsqs =\n  endpoint_url = http://b\n" << "sns"
        << "http://a";
}

void AwsProfilesTest::endpoints()
{
    QFETCH(QString, config);
    QFETCH(QString, service);
    QFETCH(QString, endpoint);
    const AwsProfileList list = readAwsProfiles(config, {});
    QVERIFY(list.find(QStringLiteral("default")));
    QCOMPARE(list.find(QStringLiteral("default"))->endpointFor(service), endpoint);
}

void AwsProfilesTest::addsProfile_data()
{
    QTest::addColumn<QString>("config");
    QTest::addColumn<QString>("credentials");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("newConfig");
    QTest::addColumn<QString>("newCredentials");
    QTest::addColumn<QString>("error");

    QTest::newRow("to empty files") << "" << "" << "dev" << "[profile dev]\nregion = eu-west-3\nendpoint_url = http://localhost:9911\n"
                                    << "[dev]\naws_access_key_id = AK\naws_secret_access_key = SK\n" << "";
    QTest::newRow("after the rest, comments and order kept")
        << "# my settings\n[default]\nregion = us-east-1 ; old\n"
        << "[default]\naws_access_key_id = X\naws_secret_access_key = Y" << "dev"
        << "# my settings\n[default]\nregion = us-east-1 ; old\n\n[profile dev]\nregion = eu-west-3\nendpoint_url = http://localhost:9911\n"
        << "[default]\naws_access_key_id = X\naws_secret_access_key = Y\n\n[dev]\naws_access_key_id = AK\naws_secret_access_key = SK\n"
        << "";
    QTest::newRow("a blank line already there is not doubled")
        << "[default]\n\n" << "" << "dev"
        << "[default]\n\n[profile dev]\nregion = eu-west-3\nendpoint_url = http://localhost:9911\n"
        << "[dev]\naws_access_key_id = AK\naws_secret_access_key = SK\n" << "";
    QTest::newRow("default is [default] in config")
        << "" << "" << "default" << "[default]\nregion = eu-west-3\nendpoint_url = http://localhost:9911\n"
        << "[default]\naws_access_key_id = AK\naws_secret_access_key = SK\n" << "";
    QTest::newRow("a name the config has is refused, nothing changed")
        << "[profile dev]\n" << "" << "dev" << "[profile dev]\n" << ""
        << "the AWS files already have a profile named dev";
    QTest::newRow("a name the credentials have is refused")
        << "" << "[dev]\n" << "dev" << "" << "[dev]\n" << "the AWS files already have a profile named dev";
    QTest::newRow("a name with a space is refused")
        << "" << "" << "my dev" << "" << ""
        << "a profile name must be non-empty, without spaces or brackets: \"my dev\"";
    QTest::newRow("a name with a bracket is refused")
        << "" << "" << "a]b" << "" << "" << "a profile name must be non-empty, without spaces or brackets: \"a]b\"";
}

void AwsProfilesTest::addsProfile()
{
    QFETCH(QString, config);
    QFETCH(QString, credentials);
    QFETCH(QString, name);
    QFETCH(QString, newConfig);
    QFETCH(QString, newCredentials);
    QFETCH(QString, error);
    AwsProfile profile;
    profile.name = name;
    profile.region = QStringLiteral("eu-west-3");
    profile.endpointUrl = QStringLiteral("http://localhost:9911");
    profile.accessKeyId = QStringLiteral("AK");
    profile.secretAccessKey = QStringLiteral("SK");
    const AwsProfileAddition addition = addAwsProfile(AwsProfileTexts{config, credentials}, profile);
    QCOMPARE(addition.error, error);
    QCOMPARE(addition.texts.config, newConfig);
    QCOMPARE(addition.texts.credentials, newCredentials);
    if (error.isEmpty()) {   // what was written reads back as the profile
        const AwsProfileList list = readAwsProfiles(newConfig, newCredentials);
        const AwsProfile *read = list.find(name);
        QVERIFY(read);
        QCOMPARE(describe(*read), describe(profile));
    }
}

void AwsProfilesTest::writesFiles()
{
    QTemporaryDir dir;
    const AwsProfileFiles files{dir.filePath(QStringLiteral("aws/config")), dir.filePath(QStringLiteral("aws/credentials"))};
    AwsProfile profile;
    profile.name = QStringLiteral("ci");
    profile.credentialProcess = QStringLiteral("/bin/echo");
    QCOMPARE(addAwsProfile(files, profile), QString());
    QCOMPARE(readAll(files.configPath), QStringLiteral("[profile ci]\ncredential_process = /bin/echo\n"));
    QVERIFY(!QFile::exists(files.credentialsPath));   // nothing to add there
    profile.name = QStringLiteral("keys");
    profile.credentialProcess.clear();
    profile.accessKeyId = QStringLiteral("AK");
    profile.secretAccessKey = QStringLiteral("SK");
    QCOMPARE(addAwsProfile(files, profile), QString());
    QCOMPARE(QFile(files.credentialsPath).permissions() & (QFileDevice::ReadGroup | QFileDevice::ReadOther),
             QFileDevice::Permissions());
    QCOMPARE(addAwsProfile(files, profile), QStringLiteral("the AWS files already have a profile named keys"));
    QCOMPARE(readAwsProfiles(files).profiles.size(), std::size_t(2));
}

RELAYDESK_TEST_MAIN(AwsProfilesTest)
#include "aws_profiles_test.moc"
