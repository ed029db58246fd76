// SPDX-License-Identifier: MIT
// NotificationSigner (docs/behaviour.md §4.1): SignatureVersion 1 and 2 over the canonical
// string of each envelope type; verification the way a subscriber does it
// (and with the openssl command line); the key kept in broker_keys.
#include "broker/deliveries/notification_signer.h"
#include "broker/deliveries/signature_cache.h"
#include "store/database.h"
#include "store/transaction.h"
#include "support/test_main.h"

#include <nlohmann/json.hpp>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace relaydesk;
using Json = nlohmann::ordered_json;

namespace {

const ClockTime kCreated = fromEpochMilliseconds(1'767'225'600'000LL); // 2026-01-01T00:00:00Z

// A database file in `dir` and the signer loaded (or created) in one transaction.
struct SigningStore {
    std::unique_ptr<Database> db;
    std::unique_ptr<NotificationSigner> signer;
};

SigningStore openSigningStore(const QTemporaryDir &dir, const QString &file = QStringLiteral("broker.db"))
{
    SigningStore store;
    auto opened = Database::open(dir.filePath(file).toStdString());
    if (!opened.ok())
        qFatal("open: %s", opened.status().toString().c_str());
    store.db = std::move(opened).value();
    auto transaction = Transaction::begin(*store.db);
    if (!transaction.ok())
        qFatal("begin: %s", transaction.status().toString().c_str());
    Result<std::unique_ptr<NotificationSigner>> signer = NotificationSigner::loadOrCreate(*store.db, kCreated);
    if (!signer)
        qFatal("loadOrCreate: %s", signer.error().message.c_str());
    if (!transaction->commit().ok())
        qFatal("commit failed");
    store.signer = std::move(*signer);
    return store;
}

Json notification(bool withSubject, const std::string &version)
{
    Json envelope;
    envelope["Type"] = "Notification";
    envelope["MessageId"] = "5e1b3c9a-0000-4000-8000-000000000001";
    envelope["TopicArn"] = "arn:aws:sns:us-east-1:000000000000:orders";
    if (withSubject)
        envelope["Subject"] = "Order placed";
    envelope["Message"] = "{\"order\": 42}\nsecond line";
    envelope["Timestamp"] = "2026-01-01T00:00:00.000Z";
    envelope["SignatureVersion"] = version;
    envelope["Signature"] = "";
    envelope["SigningCertURL"] = "http://127.0.0.1:4566/SimpleNotificationService.pem";
    envelope["UnsubscribeURL"] = "http://127.0.0.1:4566/?Action=Unsubscribe&SubscriptionArn=x";
    envelope["MessageAttributes"] = Json{{"color", Json{{"Type", "String"}, {"Value", "blue"}}}};
    return envelope;
}

Json confirmation(const std::string &type, const std::string &version)
{
    Json envelope;
    envelope["Type"] = type;
    envelope["MessageId"] = "5e1b3c9a-0000-4000-8000-000000000002";
    envelope["Token"] = "2336412f37fb687f5d51e6e2425c464de12884e3";
    envelope["TopicArn"] = "arn:aws:sns:us-east-1:000000000000:orders";
    envelope["Message"] = "You have chosen to subscribe to the topic.";
    envelope["SubscribeURL"] = "http://127.0.0.1:4566/?Action=ConfirmSubscription&Token=2336";
    envelope["Timestamp"] = "2026-01-01T00:00:01.000Z";
    envelope["SignatureVersion"] = version;
    envelope["Signature"] = "";
    envelope["SigningCertURL"] = "http://127.0.0.1:4566/SimpleNotificationService.pem";
    return envelope;
}

std::vector<std::string> keysOf(const Json &object)
{
    std::vector<std::string> keys;
    for (const auto &item : object.items())
        keys.push_back(item.key());
    return keys;
}

// Replaces one string field of a signed envelope.
std::string withField(const std::string &envelope, const std::string &key, const std::string &value)
{
    Json json = Json::parse(envelope);
    json[key] = value;
    return json.dump();
}

struct X509Free { void operator()(X509 *cert) const { X509_free(cert); } };
struct PkeyFree { void operator()(EVP_PKEY *key) const { EVP_PKEY_free(key); } };
struct BioFree { void operator()(BIO *bio) const { BIO_free(bio); } };

std::unique_ptr<X509, X509Free> parseCertificate(const std::string &pem)
{
    std::unique_ptr<BIO, BioFree> bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
    return std::unique_ptr<X509, X509Free>(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
}

} // namespace

class NotificationSignerTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    SigningStore m_store;

    const NotificationSigner &signer() const { return *m_store.signer; }

    static void addEnvelopeRows()
    {
        QTest::addColumn<QByteArray>("envelope");
        QTest::addColumn<QByteArray>("canonical");
        for (const std::string version : {"1", "2"}) {
            const std::string v = " v" + version;
            QTest::newRow(("notification with subject" + v).c_str())
                << QByteArray::fromStdString(notification(true, version).dump())
                << QByteArray("Message\n{\"order\": 42}\nsecond line\n"
                              "MessageId\n5e1b3c9a-0000-4000-8000-000000000001\n"
                              "Subject\nOrder placed\n"
                              "Timestamp\n2026-01-01T00:00:00.000Z\n"
                              "TopicArn\narn:aws:sns:us-east-1:000000000000:orders\n"
                              "Type\nNotification\n");
            QTest::newRow(("notification without subject" + v).c_str())
                << QByteArray::fromStdString(notification(false, version).dump())
                << QByteArray("Message\n{\"order\": 42}\nsecond line\n"
                              "MessageId\n5e1b3c9a-0000-4000-8000-000000000001\n"
                              "Timestamp\n2026-01-01T00:00:00.000Z\n"
                              "TopicArn\narn:aws:sns:us-east-1:000000000000:orders\n"
                              "Type\nNotification\n");
            for (const std::string type : {"SubscriptionConfirmation", "UnsubscribeConfirmation"})
                QTest::newRow((type + v).c_str())
                    << QByteArray::fromStdString(confirmation(type, version).dump())
                    << QByteArray::fromStdString(
                           "Message\nYou have chosen to subscribe to the topic.\n"
                           "MessageId\n5e1b3c9a-0000-4000-8000-000000000002\n"
                           "SubscribeURL\nhttp://127.0.0.1:4566/?Action=ConfirmSubscription&Token=2336\n"
                           "Timestamp\n2026-01-01T00:00:01.000Z\n"
                           "Token\n2336412f37fb687f5d51e6e2425c464de12884e3\n"
                           "TopicArn\narn:aws:sns:us-east-1:000000000000:orders\n"
                           "Type\n" + type + "\n");
        }
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_store = openSigningStore(m_dir);
    }

    void canonical_followsSpecKeyOrder_data() { addEnvelopeRows(); }
    void canonical_followsSpecKeyOrder()
    {
        QFETCH(QByteArray, envelope);
        QFETCH(QByteArray, canonical);
        Result<std::string> built = canonicalSigningString(envelope.toStdString());
        QVERIFY(built.ok());
        QCOMPARE(QByteArray::fromStdString(*built), canonical);
    }

    void sign_verifiesAndKeepsEnvelope_data() { addEnvelopeRows(); }
    void sign_verifiesAndKeepsEnvelope()
    {
        QFETCH(QByteArray, envelope);
        Result<std::string> signedEnvelope = signer().signEnvelope(envelope.toStdString());
        QVERIFY2(signedEnvelope.ok(), signedEnvelope.ok() ? "" : signedEnvelope.error().message.c_str());
        QVERIFY(verifyEnvelopeSignature(*signedEnvelope, signer().certificatePem()));

        const Json before = Json::parse(envelope.toStdString());
        Json after = Json::parse(*signedEnvelope);
        QCOMPARE(keysOf(after), keysOf(before));
        QVERIFY(after["Signature"].get<std::string>().size() > 300); // 256 bytes, base64
        after["Signature"] = "";
        QCOMPARE(after, before);
    }

    // The signature cache (SignatureCache) is invisible but for its speed:
    // what only the unsigned fields change shares a signature; the digest
    // version and every signed field make a new one; all of them verify.
    void sign_sameSignedFields_sameSignature_otherwiseNew()
    {
        const auto signatureOf = [&](const Json &envelope) {
            Result<std::string> signedEnvelope = signer().signEnvelope(envelope.dump());
            if (!signedEnvelope || !verifyEnvelopeSignature(*signedEnvelope, signer().certificatePem()))
                return std::string("(failed)");
            return Json::parse(*signedEnvelope)["Signature"].get<std::string>();
        };
        const std::string first = signatureOf(notification(true, "1"));
        Json otherSubscription = notification(true, "1");
        otherSubscription["UnsubscribeURL"] = "http://127.0.0.1:4566/?Action=Unsubscribe&SubscriptionArn=y";
        QCOMPARE(signatureOf(otherSubscription), first);
        QCOMPARE(signatureOf(notification(true, "1")), first);

        const std::string version2 = signatureOf(notification(true, "2"));
        QVERIFY(version2 != first && version2 != "(failed)");
        QCOMPARE(signatureOf(notification(true, "2")), version2);
        Json otherMessage = notification(true, "1");
        otherMessage["Message"] = "{\"order\": 43}";
        const std::string changed = signatureOf(otherMessage);
        QVERIFY(changed != first && changed != "(failed)");
        QVERIFY(signatureOf(notification(false, "1")) != first);
    }

    void signatureCache_keepsTheNewest()
    {
        SignatureCache cache(2);
        cache.insert("a", "A");
        cache.insert("b", "B");
        cache.insert("a", "A again");   // already there: kept as it was
        QCOMPARE(cache.find("a").value_or(""), std::string("A"));
        cache.insert("c", "C");         // the oldest, "a", goes
        QVERIFY(!cache.find("a"));
        QCOMPARE(cache.find("b").value_or(""), std::string("B"));
        QCOMPARE(cache.find("c").value_or(""), std::string("C"));
        QCOMPARE(cache.size(), std::size_t(2));
        SignatureCache none(0);
        none.insert("a", "A");
        QVERIFY(!none.find("a"));
    }

    void sign_missingSignatureKey_isAppended()
    {
        Json envelope = notification(true, "2");
        envelope.erase("Signature");
        Result<std::string> signedEnvelope = signer().signEnvelope(envelope.dump());
        QVERIFY(signedEnvelope.ok());
        QCOMPARE(keysOf(Json::parse(*signedEnvelope)).back(), std::string("Signature"));
        QVERIFY(verifyEnvelopeSignature(*signedEnvelope, signer().certificatePem()));
    }

    void verify_alteredEnvelope_fails_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        for (const QString &version : {QStringLiteral("1"), QStringLiteral("2")}) {
            QTest::newRow(qPrintable("message v" + version)) << version << "Message" << "{\"order\": 43}";
            QTest::newRow(qPrintable("subject v" + version)) << version << "Subject" << "Order cancelled";
            QTest::newRow(qPrintable("timestamp v" + version)) << version << "Timestamp" << "2026-01-01T00:00:00.001Z";
            QTest::newRow(qPrintable("signature v" + version)) << version << "Signature" << "AAAA";
            QTest::newRow(qPrintable("not base64 v" + version)) << version << "Signature" << "%%%%";
        }
        QTest::newRow("version 1 read as 2") << "1" << "SignatureVersion" << "2";
        QTest::newRow("version 2 read as 1") << "2" << "SignatureVersion" << "1";
    }
    void verify_alteredEnvelope_fails()
    {
        QFETCH(QString, version);
        QFETCH(QString, key);
        QFETCH(QString, value);
        Result<std::string> signedEnvelope = signer().signEnvelope(notification(true, version.toStdString()).dump());
        QVERIFY(signedEnvelope.ok());
        QVERIFY(verifyEnvelopeSignature(*signedEnvelope, signer().certificatePem()));
        const std::string altered = withField(*signedEnvelope, key.toStdString(), value.toStdString());
        QVERIFY(!verifyEnvelopeSignature(altered, signer().certificatePem()));
    }

    void verify_oneFlippedSignatureByte_fails()
    {
        Result<std::string> signedEnvelope = signer().signEnvelope(notification(false, "2").dump());
        QVERIFY(signedEnvelope.ok());
        std::string signature = Json::parse(*signedEnvelope)["Signature"].get<std::string>();
        signature[10] = signature[10] == 'A' ? 'B' : 'A';
        QVERIFY(!verifyEnvelopeSignature(withField(*signedEnvelope, "Signature", signature), signer().certificatePem()));
    }

    void verify_otherCertificate_fails()
    {
        QTemporaryDir otherDir;
        SigningStore other = openSigningStore(otherDir);
        QVERIFY(other.signer->certificatePem() != signer().certificatePem());
        Result<std::string> signedEnvelope = signer().signEnvelope(notification(true, "1").dump());
        QVERIFY(signedEnvelope.ok());
        QVERIFY(!verifyEnvelopeSignature(*signedEnvelope, other.signer->certificatePem()));
        QVERIFY(!verifyEnvelopeSignature(*signedEnvelope, "not a certificate"));
    }

    void sign_malformedEnvelope_isInvalidParameter_data()
    {
        QTest::addColumn<QByteArray>("envelope");
        const auto without = [](Json envelope, const char *key) {
            envelope.erase(key);
            return QByteArray::fromStdString(envelope.dump());
        };
        const auto with = [](Json envelope, const char *key, Json value) {
            envelope[key] = std::move(value);
            return QByteArray::fromStdString(envelope.dump());
        };
        QTest::newRow("not json") << QByteArray("{\"Type\": ");
        QTest::newRow("array") << QByteArray("[]");
        QTest::newRow("unknown type") << with(notification(true, "1"), "Type", "Other");
        QTest::newRow("version 3") << with(notification(true, "1"), "SignatureVersion", "3");
        QTest::newRow("numeric version") << with(notification(true, "1"), "SignatureVersion", 1);
        QTest::newRow("no message") << without(notification(true, "1"), "Message");
        QTest::newRow("no type") << without(notification(true, "1"), "Type");
        QTest::newRow("numeric subject") << with(notification(true, "1"), "Subject", 7);
        QTest::newRow("confirmation without token") << without(confirmation("SubscriptionConfirmation", "1"), "Token");
        QTest::newRow("confirmation without url")
            << without(confirmation("UnsubscribeConfirmation", "2"), "SubscribeURL");
    }
    void sign_malformedEnvelope_isInvalidParameter()
    {
        QFETCH(QByteArray, envelope);
        Result<std::string> signedEnvelope = signer().signEnvelope(envelope.toStdString());
        QVERIFY(!signedEnvelope.ok());
        QCOMPARE(signedEnvelope.error().code, BrokerErrorCode::InvalidParameterValue);
        QVERIFY(!verifyEnvelopeSignature(envelope.toStdString(), signer().certificatePem()));
    }

    void loadOrCreate_again_loadsTheSameKey()
    {
        QTemporaryDir dir;
        std::string firstCertificate;
        std::string signedEnvelope;
        {
            SigningStore first = openSigningStore(dir);
            firstCertificate = first.signer->certificatePem();
            Result<std::string> signedByFirst = first.signer->signEnvelope(notification(true, "2").dump());
            QVERIFY(signedByFirst.ok());
            signedEnvelope = *signedByFirst;
        } // the database file is closed: a restart
        SigningStore second = openSigningStore(dir);
        QCOMPARE(second.signer->certificatePem(), firstCertificate);
        QVERIFY(verifyEnvelopeSignature(signedEnvelope, second.signer->certificatePem()));
        QCOMPARE(*second.db->queryInt64("SELECT count(*) FROM broker_keys WHERE purpose = 'signing'"), std::int64_t(1));
        QCOMPARE(*second.db->queryInt64("SELECT created_ms FROM broker_keys"), toEpochMilliseconds(kCreated));
    }

    void certificate_parsesAndMatchesStoredKey()
    {
        const std::string pem = signer().certificatePem();
        QVERIFY(pem.starts_with("-----BEGIN CERTIFICATE-----"));
        auto cert = parseCertificate(pem);
        QVERIFY(cert);
        EVP_PKEY *publicKey = X509_get0_pubkey(cert.get());
        QVERIFY(publicKey);
        QVERIFY(EVP_PKEY_is_a(publicKey, "RSA"));
        QCOMPARE(EVP_PKEY_get_bits(publicKey), 2048);
        QCOMPARE(X509_check_issued(cert.get(), cert.get()), int(X509_V_OK)); // self-signed
        QVERIFY(X509_verify(cert.get(), publicKey) == 1);
        QCOMPARE(ASN1_TIME_cmp_time_t(X509_get0_notBefore(cert.get()), toEpochMilliseconds(kCreated) / 1000), 0);
        QCOMPARE(ASN1_TIME_cmp_time_t(X509_get0_notAfter(cert.get()), toEpochMilliseconds(kCreated) / 1000), 1);

        const std::string keyPem = *m_store.db->queryText(
            "SELECT private_key_pem FROM broker_keys WHERE purpose = 'signing'");
        std::unique_ptr<BIO, BioFree> bio(BIO_new_mem_buf(keyPem.data(), static_cast<int>(keyPem.size())));
        std::unique_ptr<EVP_PKEY, PkeyFree> privateKey(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
        QVERIFY(privateKey);
        QCOMPARE(X509_check_private_key(cert.get(), privateKey.get()), 1);
        QCOMPARE(EVP_PKEY_eq(publicKey, privateKey.get()), 1);
    }

    // An independent subscriber: the openssl command line over the canonical
    // string written by hand (as addEnvelopeRows spells it).
    void opensslCommandLine_verifiesSignature_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("digest");
        QTest::newRow("version 1") << "1" << "-sha1";
        QTest::newRow("version 2") << "2" << "-sha256";
    }
    void opensslCommandLine_verifiesSignature()
    {
        QFETCH(QString, version);
        QFETCH(QString, digest);
        const QString openssl = QStandardPaths::findExecutable(QStringLiteral("openssl"));
        QVERIFY2(!openssl.isEmpty(), "the openssl command line is not installed (installer/dev.sh installs it)");
        Result<std::string> signedEnvelope = signer().signEnvelope(notification(false, version.toStdString()).dump());
        QVERIFY(signedEnvelope.ok());
        const QByteArray signature = QByteArray::fromBase64(
            QByteArray::fromStdString(Json::parse(*signedEnvelope)["Signature"].get<std::string>()));
        const QByteArray canonical("Message\n{\"order\": 42}\nsecond line\n"
                                   "MessageId\n5e1b3c9a-0000-4000-8000-000000000001\n"
                                   "Timestamp\n2026-01-01T00:00:00.000Z\n"
                                   "TopicArn\narn:aws:sns:us-east-1:000000000000:orders\n"
                                   "Type\nNotification\n");
        QTemporaryDir dir;
        const auto write = [&](const char *name, const QByteArray &bytes) {
            QFile file(dir.filePath(QString::fromLatin1(name)));
            return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
        };
        QVERIFY(write("cert.pem", QByteArray::fromStdString(signer().certificatePem())));
        QVERIFY(write("canonical.txt", canonical));
        QVERIFY(write("signature.bin", signature));
        QVERIFY(write("tampered.txt", canonical + "x"));

        const auto run = [&](const QStringList &arguments) {
            QProcess process;
            process.setWorkingDirectory(dir.path());
            process.start(openssl, arguments);
            if (!process.waitForFinished(30'000))
                return QPair<int, QByteArray>(-1, {});
            return QPair<int, QByteArray>(process.exitCode(), process.readAllStandardOutput());
        };
        const auto publicKey = run({"x509", "-in", "cert.pem", "-pubkey", "-noout"});
        QCOMPARE(publicKey.first, 0);
        QVERIFY(write("public.pem", publicKey.second));
        const auto verified = run({"dgst", digest, "-verify", "public.pem", "-signature", "signature.bin", "canonical.txt"});
        QCOMPARE(verified.first, 0);
        QVERIFY(verified.second.contains("Verified OK"));
        const auto tampered = run({"dgst", digest, "-verify", "public.pem", "-signature", "signature.bin", "tampered.txt"});
        QVERIFY(tampered.first != 0);
    }
};

RELAYDESK_TEST_MAIN(NotificationSignerTest)
#include "notification_signer_test.moc"
