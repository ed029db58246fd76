// SPDX-License-Identifier: MIT
#include "host/tls_certificates.h"

#include <QHostAddress>
#include <QtEndian>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <memory>

namespace relaydesk::tls_certificates {

namespace {

struct PkeyFree { void operator()(EVP_PKEY *key) const { EVP_PKEY_free(key); } };
struct X509Free { void operator()(X509 *cert) const { X509_free(cert); } };
struct BioFree { void operator()(BIO *bio) const { BIO_free(bio); } };
using PkeyPtr = std::unique_ptr<EVP_PKEY, PkeyFree>;
using X509Ptr = std::unique_ptr<X509, X509Free>;
using BioPtr = std::unique_ptr<BIO, BioFree>;

constexpr long kBackdateSeconds = 3600; // clocks of client and broker may differ a little

X509Ptr readCertificate(const QByteArray &pem)
{
    BioPtr bio(BIO_new_mem_buf(pem.constData(), int(pem.size())));
    return X509Ptr(bio ? PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr) : nullptr);
}

PkeyPtr readKey(const QByteArray &pem)
{
    BioPtr bio(BIO_new_mem_buf(pem.constData(), int(pem.size())));
    return PkeyPtr(bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr);
}

QByteArray bioBytes(BIO *bio)
{
    char *data = nullptr;
    const long length = BIO_get_mem_data(bio, &data);
    return QByteArray(data, qsizetype(length));
}

std::optional<Pem> toPem(X509 *certificate, EVP_PKEY *key)
{
    BioPtr certBio(BIO_new(BIO_s_mem()));
    BioPtr keyBio(BIO_new(BIO_s_mem()));
    if (!certBio || !keyBio || PEM_write_bio_X509(certBio.get(), certificate) != 1 ||
        PEM_write_bio_PrivateKey(keyBio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) != 1)
        return std::nullopt;
    return Pem{bioBytes(certBio.get()), bioBytes(keyBio.get())};
}

bool addExtension(X509 *certificate, X509 *issuer, int nid, const char *value)
{
    X509V3_CTX context;
    X509V3_set_ctx_nodb(&context);
    X509V3_set_ctx(&context, issuer, certificate, nullptr, nullptr, 0);
    X509_EXTENSION *extension = X509V3_EXT_conf_nid(nullptr, &context, nid, value);
    if (!extension)
        return false;
    const bool added = X509_add_ext(certificate, extension, -1) == 1;
    X509_EXTENSION_free(extension);
    return added;
}

// A certificate with a random serial, `subject` as its CN, valid [now - backdate, now + days],
// carrying `key`'s public half; signed later.
X509Ptr newCertificate(EVP_PKEY *key, const char *subject, std::int64_t now, int days)
{
    X509Ptr certificate(X509_new());
    std::unique_ptr<BIGNUM, decltype(&BN_free)> serial(BN_new(), BN_free);
    if (!certificate || !serial || X509_set_version(certificate.get(), 2) != 1 ||
        BN_rand(serial.get(), 127, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) != 1 ||
        !BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(certificate.get())))
        return nullptr;
    time_t base = time_t(now);
    if (!X509_time_adj_ex(X509_getm_notBefore(certificate.get()), 0, -kBackdateSeconds, &base) ||
        !X509_time_adj_ex(X509_getm_notAfter(certificate.get()), days, 0, &base))
        return nullptr;
    X509_NAME *name = X509_get_subject_name(certificate.get());
    if (X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC, reinterpret_cast<const unsigned char *>("Relaydesk"), -1, -1, 0) != 1 ||
        X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char *>(subject), -1, -1, 0) != 1 ||
        X509_set_pubkey(certificate.get(), key) != 1)
        return nullptr;
    return certificate;
}

PkeyPtr newKey() { return PkeyPtr(EVP_EC_gen("P-256")); }

} // namespace

std::optional<Pem> makeAuthority(std::int64_t now, int days)
{
    PkeyPtr key = newKey();
    if (!key)
        return std::nullopt;
    X509Ptr certificate = newCertificate(key.get(), "Relaydesk local CA", now, days);
    if (!certificate || X509_set_issuer_name(certificate.get(), X509_get_subject_name(certificate.get())) != 1 ||
        !addExtension(certificate.get(), certificate.get(), NID_basic_constraints, "critical,CA:TRUE,pathlen:0") ||
        !addExtension(certificate.get(), certificate.get(), NID_key_usage, "critical,keyCertSign,cRLSign") ||
        !addExtension(certificate.get(), certificate.get(), NID_subject_key_identifier, "hash") ||
        !addExtension(certificate.get(), certificate.get(), NID_authority_key_identifier, "keyid:always") ||
        X509_sign(certificate.get(), key.get(), EVP_sha256()) == 0)
        return std::nullopt;
    return toPem(certificate.get(), key.get());
}

std::optional<Pem> issueServer(const Pem &authority, const QStringList &names, std::int64_t now, int days)
{
    X509Ptr issuer = readCertificate(authority.certificate);
    PkeyPtr issuerKey = readKey(authority.key);
    PkeyPtr key = newKey();
    if (!issuer || !issuerKey || !key)
        return std::nullopt;
    const QByteArray alternatives = alternativeNamesFor(names).join(QLatin1Char(',')).toUtf8();
    X509Ptr certificate = newCertificate(key.get(), "Relaydesk broker", now, days);
    if (!certificate || X509_set_issuer_name(certificate.get(), X509_get_subject_name(issuer.get())) != 1 ||
        !addExtension(certificate.get(), issuer.get(), NID_basic_constraints, "critical,CA:FALSE") ||
        !addExtension(certificate.get(), issuer.get(), NID_key_usage, "critical,digitalSignature") ||
        !addExtension(certificate.get(), issuer.get(), NID_ext_key_usage, "serverAuth") ||
        !addExtension(certificate.get(), issuer.get(), NID_subject_key_identifier, "hash") ||
        !addExtension(certificate.get(), issuer.get(), NID_authority_key_identifier, "keyid:always") ||
        !addExtension(certificate.get(), issuer.get(), NID_subject_alt_name, alternatives.constData()) ||
        X509_sign(certificate.get(), issuerKey.get(), EVP_sha256()) == 0)
        return std::nullopt;
    return toPem(certificate.get(), key.get());
}

bool isCertificate(const QByteArray &pem) { return readCertificate(pem) != nullptr; }

bool validAt(const QByteArray &certificate, std::int64_t at)
{
    X509Ptr parsed = readCertificate(certificate);
    time_t when = time_t(at);
    return parsed && X509_cmp_time(X509_get0_notBefore(parsed.get()), &when) < 0 &&
           X509_cmp_time(X509_get0_notAfter(parsed.get()), &when) > 0;
}

bool keyMatches(const QByteArray &certificate, const QByteArray &key)
{
    X509Ptr parsed = readCertificate(certificate);
    PkeyPtr parsedKey = readKey(key);
    return parsed && parsedKey && X509_check_private_key(parsed.get(), parsedKey.get()) == 1;
}

bool signedBy(const QByteArray &certificate, const QByteArray &authority)
{
    X509Ptr parsed = readCertificate(certificate);
    X509Ptr issuer = readCertificate(authority);
    if (!parsed || !issuer)
        return false;
    EVP_PKEY *issuerKey = X509_get0_pubkey(issuer.get());
    return issuerKey && X509_verify(parsed.get(), issuerKey) == 1;
}

QStringList alternativeNames(const QByteArray &certificate)
{
    QStringList names;
    X509Ptr parsed = readCertificate(certificate);
    if (!parsed)
        return names;
    auto *general = static_cast<GENERAL_NAMES *>(X509_get_ext_d2i(parsed.get(), NID_subject_alt_name, nullptr, nullptr));
    for (int i = 0; general && i < sk_GENERAL_NAME_num(general); ++i) {
        const GENERAL_NAME *name = sk_GENERAL_NAME_value(general, i);
        if (name->type == GEN_DNS) {
            names << QStringLiteral("DNS:") + QString::fromLatin1(reinterpret_cast<const char *>(ASN1_STRING_get0_data(name->d.dNSName)),
                                                                  ASN1_STRING_length(name->d.dNSName));
        } else if (name->type == GEN_IPADD) {
            const QByteArray raw(reinterpret_cast<const char *>(ASN1_STRING_get0_data(name->d.iPAddress)),
                                 ASN1_STRING_length(name->d.iPAddress));
            QHostAddress address;
            if (raw.size() == 4)
                address.setAddress(qFromBigEndian<quint32>(raw.constData()));
            else if (raw.size() == 16)
                address.setAddress(reinterpret_cast<const quint8 *>(raw.constData()));
            names << QStringLiteral("IP:") + address.toString();
        }
    }
    GENERAL_NAMES_free(general);
    names.sort();
    return names;
}

QStringList alternativeNamesFor(const QStringList &names)
{
    QStringList forms;
    for (const QString &name : names) {
        const QHostAddress address(name);
        forms << (address.isNull() ? QStringLiteral("DNS:") + name.toLower() : QStringLiteral("IP:") + address.toString());
    }
    forms.sort();
    forms.removeDuplicates();
    return forms;
}

} // namespace relaydesk::tls_certificates
