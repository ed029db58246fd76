// SPDX-License-Identifier: MIT
// Service Bus Shared Access Signatures as the broker checks them
// (api/wire/shared_access_signature.h): a token made as @azure/core-amqp makes
// it (a fixed one, computed with node's crypto) is accepted; then row by row a
// wrong key value, an unknown key name, an expired token, a resource that does
// not cover the audience, and tokens that are not SAS at all (a bare
// skn=KEYNAME among them) are refused, in words that never hold the key.
#include "api/wire/shared_access_signature.h"
#include "support/test_main.h"

#include <QTest>
#include <QUrl>

using namespace relaydesk;

namespace {

using Outcome = SasCheck::Outcome;

constexpr std::int64_t kNow = 1800000000;
constexpr const char *kKey = "SAS_KEY_VALUE";

// What @azure/service-bus 7.9.5 puts for sb://localhost:5672/orders, expiring at kNow + 3600.
constexpr const char *kSdkToken = "SharedAccessSignature sr=sb%3A%2F%2Flocalhost%3A5672%2Forders&"
                                  "sig=5XXcAsLVNQlAo95Ak0crMoLiuT64QQ0Z6zk68%2BPc43s%3D&se=1800003600&"
                                  "skn=RootManageSharedAccessKey";

SharedAccessSignatureCheck check()
{
    return SharedAccessSignatureCheck(SharedAccessKeys{{"RootManageSharedAccessKey", kKey}, {"SendOnly", "other-key"}});
}

std::string encoded(const std::string &text) { return QUrl::toPercentEncoding(QString::fromStdString(text)).toStdString(); }

// A token for `resource` (a URI, encoded here as the SDKs encode it) signed with `key`.
std::string token(const std::string &keyName, const std::string &key, const std::string &resource, std::int64_t expiry)
{
    const std::string sr = encoded(resource);
    return "SharedAccessSignature sr=" + sr + "&sig=" +
           encoded(SharedAccessSignatureCheck::sign(key, sr, std::to_string(expiry))) + "&se=" + std::to_string(expiry) +
           "&skn=" + keyName;
}

} // namespace

class SharedAccessSignatureTest final : public QObject {
    Q_OBJECT

private slots:
    void sdkToken_isAccepted()
    {
        const SasCheck accepted = check().check(kSdkToken, "sb://localhost:5672/orders", kNow);
        QCOMPARE(int(accepted.outcome), int(Outcome::Valid));
        QCOMPARE(QByteArray::fromStdString(accepted.scope), QByteArray("localhost:5672/orders"));
        QCOMPARE(accepted.expiresAt, std::int64_t(1800003600));
        QCOMPARE(int(check().check(kSdkToken, "sb://localhost:5672/orders", 1800003600).outcome), int(Outcome::Expired));
    }

    void signedTokens_data()
    {
        QTest::addColumn<QByteArray>("keyName");
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<QByteArray>("resource");
        QTest::addColumn<int>("expiresIn");   // seconds after kNow
        QTest::addColumn<QByteArray>("audience");
        QTest::addColumn<int>("outcome");
        const QByteArray root("RootManageSharedAccessKey");
        const QByteArray entity("sb://localhost:5672/orders");
        QTest::newRow("right key, the entity") << root << QByteArray(kKey) << entity << 3600 << entity << int(Outcome::Valid);
        QTest::newRow("second key") << QByteArray("SendOnly") << QByteArray("other-key") << entity << 60 << entity << int(Outcome::Valid);
        QTest::newRow("namespace covers an entity") << root << QByteArray(kKey) << QByteArray("sb://localhost:5672/") << 60
                                                    << entity << int(Outcome::Valid);
        QTest::newRow("entity covers its subscription") << root << QByteArray(kKey) << QByteArray("sb://localhost:5672/t")
                                                        << 60 << QByteArray("sb://localhost:5672/t/Subscriptions/s")
                                                        << int(Outcome::Valid);
        QTest::newRow("scheme and case differ") << root << QByteArray(kKey) << QByteArray("amqp://LOCALHOST:5672/Orders")
                                                << 60 << entity << int(Outcome::Valid);
        QTest::newRow("wrong key value") << root << QByteArray("not-the-key") << entity << 3600 << entity << int(Outcome::Mismatch);
        QTest::newRow("another name's key") << root << QByteArray("other-key") << entity << 3600 << entity << int(Outcome::Mismatch);
        QTest::newRow("unknown key name") << QByteArray("SomeoneElse") << QByteArray(kKey) << entity << 3600 << entity
                                          << int(Outcome::UnknownKey);
        QTest::newRow("expired") << root << QByteArray(kKey) << entity << -1 << entity << int(Outcome::Expired);
        QTest::newRow("expires now") << root << QByteArray(kKey) << entity << 0 << entity << int(Outcome::Expired);
        QTest::newRow("another entity") << root << QByteArray(kKey) << QByteArray("sb://localhost:5672/payments") << 60
                                        << entity << int(Outcome::OutOfScope);
        QTest::newRow("a name's prefix is no path") << root << QByteArray(kKey) << QByteArray("sb://localhost:5672/order")
                                                    << 60 << entity << int(Outcome::OutOfScope);
        QTest::newRow("another host") << root << QByteArray(kKey) << QByteArray("sb://elsewhere:5672/") << 60 << entity
                                      << int(Outcome::OutOfScope);
        // The management SDKs sign the request's whole URL, query included (ServiceBusAdministrationClient).
        const QByteArray management("https://localhost:5300/orders");
        QTest::newRow("a signed URL's query") << root << QByteArray(kKey)
                                              << QByteArray("https://localhost:5300/orders?api-version=2021-05") << 60
                                              << management << int(Outcome::Valid);
        QTest::newRow("a query is no path") << root << QByteArray(kKey)
                                            << QByteArray("https://localhost:5300/orders?api-version=2021-05") << 60
                                            << QByteArray("https://localhost:5300/payments") << int(Outcome::OutOfScope);
    }

    void signedTokens()
    {
        QFETCH(QByteArray, keyName);
        QFETCH(QByteArray, key);
        QFETCH(QByteArray, resource);
        QFETCH(int, expiresIn);
        QFETCH(QByteArray, audience);
        QFETCH(int, outcome);
        const SasCheck result =
            check().check(token(keyName.toStdString(), key.toStdString(), resource.toStdString(), kNow + expiresIn),
                          audience.toStdString(), kNow);
        QCOMPARE(int(result.outcome), outcome);
        QCOMPARE(result.message.empty(), outcome == int(Outcome::Valid));
        QVERIFY(result.message.find(kKey) == std::string::npos);
        QVERIFY(result.message.find("other-key") == std::string::npos);
    }

    void notSas_data()
    {
        QTest::addColumn<QByteArray>("text");
        const std::string good = kSdkToken;
        QTest::newRow("a bare key name") << QByteArray("SharedAccessSignature skn=RootManageSharedAccessKey");
        QTest::newRow("skn alone, no scheme") << QByteArray("skn=RootManageSharedAccessKey");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("a JWT") << QByteArray("Bearer eyJhbGciOiJIUzI1NiJ9.e30.x");
        QTest::newRow("no signature") << QByteArray::fromStdString(
            "SharedAccessSignature sr=sb%3A%2F%2Flocalhost%3A5672%2Forders&se=1800003600&skn=RootManageSharedAccessKey");
        QTest::newRow("empty signature") << QByteArray::fromStdString(
            "SharedAccessSignature sr=sb%3A%2F%2Flocalhost%3A5672%2Forders&sig=&se=1800003600&skn=RootManageSharedAccessKey");
        QTest::newRow("a field twice") << QByteArray::fromStdString(good + "&se=1900000000");
        QTest::newRow("expiry not a number") << QByteArray::fromStdString(
            "SharedAccessSignature sr=sb%3A%2F%2Flocalhost%3A5672%2Forders&sig=5XXcAsLVNQlAo95Ak0crMoLiuT64QQ0Z6zk68%2BPc43s%3D&"
            "se=soon&skn=RootManageSharedAccessKey");
        QTest::newRow("expiry beyond 64 bits") << QByteArray::fromStdString(
            "SharedAccessSignature sr=sb%3A%2F%2Flocalhost%3A5672%2Forders&sig=5XXcAsLVNQlAo95Ak0crMoLiuT64QQ0Z6zk68%2BPc43s%3D&"
            "se=99999999999999999999&skn=RootManageSharedAccessKey");
    }

    void notSas()
    {
        QFETCH(QByteArray, text);
        const SasCheck result = check().check(text.toStdString(), "sb://localhost:5672/orders", kNow);
        QCOMPARE(int(result.outcome), int(Outcome::Malformed));
        QVERIFY(!result.message.empty());
    }

    void tamperedSignature_isMismatch()
    {
        std::string tampered = kSdkToken;
        tampered.replace(tampered.find("sig=5XX"), 7, "sig=5XY");
        QCOMPARE(int(check().check(tampered, "sb://localhost:5672/orders", kNow).outcome), int(Outcome::Mismatch));
        std::string later = kSdkToken;   // the expiry moved on without a new signature
        later.replace(later.find("se=1800003600"), 13, "se=1900003600");
        QCOMPARE(int(check().check(later, "sb://localhost:5672/orders", kNow).outcome), int(Outcome::Mismatch));
    }

    void scopeCoversEntity_data()
    {
        QTest::addColumn<QByteArray>("scope");
        QTest::addColumn<QByteArray>("address");
        QTest::addColumn<bool>("covered");
        QTest::newRow("namespace, any entity") << QByteArray("localhost:5672") << QByteArray("orders") << true;
        QTest::newRow("the entity") << QByteArray("localhost:5672/orders") << QByteArray("orders") << true;
        QTest::newRow("its management node") << QByteArray("localhost:5672/orders") << QByteArray("orders/$management") << true;
        QTest::newRow("its dead letters") << QByteArray("localhost:5672/orders") << QByteArray("orders/$DeadLetterQueue") << true;
        QTest::newRow("case differs") << QByteArray("localhost:5672/orders") << QByteArray("Orders") << true;
        QTest::newRow("a URI address") << QByteArray("localhost:5672/orders") << QByteArray("amqp://127.0.0.1:5672/orders") << true;
        QTest::newRow("another entity") << QByteArray("localhost:5672/orders") << QByteArray("payments") << false;
        QTest::newRow("a longer name") << QByteArray("localhost:5672/orders") << QByteArray("orders2") << false;
        QTest::newRow("a subscription's scope, its topic") << QByteArray("localhost:5672/t/subscriptions/s") << QByteArray("t")
                                                          << false;
    }

    void scopeCoversEntity()
    {
        QFETCH(QByteArray, scope);
        QFETCH(QByteArray, address);
        QFETCH(bool, covered);
        QCOMPARE(SharedAccessSignatureCheck::scopeCoversEntity(scope.toStdString(), address.toStdString()), covered);
    }
};

RELAYDESK_TEST_MAIN(SharedAccessSignatureTest)
#include "shared_access_signature_test.moc"
