// SPDX-License-Identifier: MIT
// The claims of one AMQP connection (api/servicebus/cbs_claims.h): which
// put-tokens are kept, which entity links they let attach and until when,
// renewal, the bound on kept scopes, and no check at all without --credentials.
#include "api/servicebus/cbs_claims.h"
#include "support/test_main.h"

#include <QTest>
#include <QUrl>

using namespace relaydesk;

namespace {

constexpr std::int64_t kNow = 1800000000;

std::shared_ptr<const SharedAccessSignatureCheck> keys()
{
    return std::make_shared<const SharedAccessSignatureCheck>(SharedAccessKeys{{"RootManageSharedAccessKey", "SAS_KEY_VALUE"}});
}

std::string tokenFor(const std::string &resource, std::int64_t expiry, const std::string &key = "SAS_KEY_VALUE")
{
    const std::string sr = QUrl::toPercentEncoding(QString::fromStdString(resource)).toStdString();
    const std::string sig = QUrl::toPercentEncoding(QString::fromStdString(
                                                        SharedAccessSignatureCheck::sign(key, sr, std::to_string(expiry))))
                                .toStdString();
    return "SharedAccessSignature sr=" + sr + "&sig=" + sig + "&se=" + std::to_string(expiry) +
           "&skn=RootManageSharedAccessKey";
}

} // namespace

class CbsClaimsTest final : public QObject {
    Q_OBJECT

private slots:
    void withoutCredentials_everythingPasses()
    {
        CbsClaims claims;
        QVERIFY(!claims.required());
        QVERIFY(!claims.put("SharedAccessSignature skn=anything", "sb://h/q", kNow));
        QVERIFY(!claims.put("", "", kNow));
        QVERIFY(claims.covers("q", kNow));
    }

    void entityToken_coversItsEntityUntilItExpires()
    {
        CbsClaims claims(keys());
        QVERIFY(!claims.covers("orders", kNow));
        const std::string audience = "sb://localhost:5672/orders";
        QVERIFY(!claims.put(tokenFor(audience, kNow + 60), audience, kNow));
        QVERIFY(claims.covers("orders", kNow));
        QVERIFY(claims.covers("orders/$management", kNow));
        QVERIFY(!claims.covers("payments", kNow));
        QVERIFY(claims.covers("orders", kNow + 59));
        QVERIFY(!claims.covers("orders", kNow + 60));
        // renewed before expiry: the new expiry holds
        QVERIFY(!claims.put(tokenFor(audience, kNow + 600), audience, kNow + 30));
        QVERIFY(claims.covers("orders", kNow + 599));
    }

    void refusedTokens_coverNothing_data()
    {
        QTest::addColumn<QByteArray>("token");
        QTest::addColumn<QByteArray>("audience");
        QTest::addColumn<QByteArray>("words");
        const std::string audience = "sb://localhost:5672/orders";
        QTest::newRow("wrong key value") << QByteArray::fromStdString(tokenFor(audience, kNow + 60, "wrong"))
                                         << QByteArray::fromStdString(audience) << QByteArray("invalid signature");
        QTest::newRow("expired (se=1)") << QByteArray::fromStdString(tokenFor(audience, 1))
                                        << QByteArray::fromStdString(audience) << QByteArray("expired");
        QTest::newRow("a bare key name") << QByteArray("SharedAccessSignature skn=RootManageSharedAccessKey")
                                         << QByteArray::fromStdString(audience) << QByteArray("not a Shared Access Signature");
        QTest::newRow("put for another entity") << QByteArray::fromStdString(tokenFor("sb://localhost:5672/payments", kNow + 60))
                                                << QByteArray::fromStdString(audience) << QByteArray("does not cover");
        QTest::newRow("no audience") << QByteArray::fromStdString(tokenFor(audience, kNow + 60)) << QByteArray()
                                     << QByteArray("audience");
    }

    void refusedTokens_coverNothing()
    {
        QFETCH(QByteArray, token);
        QFETCH(QByteArray, audience);
        QFETCH(QByteArray, words);
        CbsClaims claims(keys());
        const std::optional<std::string> refused = claims.put(token.toStdString(), audience.toStdString(), kNow);
        QVERIFY(refused);
        QVERIFY2(refused->find(words.toStdString()) != std::string::npos, refused->c_str());
        QVERIFY(refused->find("SAS_KEY_VALUE") == std::string::npos);
        QVERIFY(!claims.covers("orders", kNow));
        QVERIFY(!claims.covers("payments", kNow));
    }

    void keptScopes_areBounded()
    {
        CbsClaims claims(keys());
        for (std::size_t i = 0; i <= CbsClaims::kMaxClaims; ++i) {
            const std::string audience = "sb://h/q" + std::to_string(i);
            QVERIFY(!claims.put(tokenFor(audience, kNow + 1000 + std::int64_t(i)), audience, kNow));
        }
        QVERIFY(!claims.covers("q0", kNow));   // the first to expire made room
        QVERIFY(claims.covers("q1", kNow));
        QVERIFY(claims.covers("q" + std::to_string(CbsClaims::kMaxClaims), kNow));
    }
};

RELAYDESK_TEST_MAIN(CbsClaimsTest)
#include "servicebus_cbs_claims_test.moc"
