// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "broker/result.h"

#include <memory>
#include <string>
#include <string_view>

namespace relaydesk {

class Database;

// Real SNS message signatures (docs/behaviour.md §4.1).
//
// The broker's signing key: RSA 2048 and a self-signed X.509 certificate
// (CN=relaydesk, valid ten years from its creation), generated once and kept
// as PEM in table broker_keys, row purpose='signing'. The certificate is what
// the broker serves at SigningCertURL (ENDPOINT/SimpleNotificationService.pem,
// see sns_envelope.h), so subscribers can check signatures the way they check
// AWS's.
//
// Signing follows AWS: the canonical string is "Key\nValue\n" for each key
// in this order, skipping none —
//   Notification:                 Message, MessageId, Subject (only if the
//                                 envelope has one), Timestamp, TopicArn, Type
//   SubscriptionConfirmation and
//   UnsubscribeConfirmation:      Message, MessageId, SubscribeURL,
//                                 Timestamp, Token, TopicArn, Type
// signed with SHA1withRSA (SignatureVersion "1") or SHA256withRSA
// (SignatureVersion "2", PKCS#1 v1.5 both), base64 without line breaks.
//
// Ownership: owns its key (OpenSSL objects, freed with it).
// Signing costs ~0.5 ms of CPU (RSA 2048), so the newest 8 192 signatures
// are kept by a digest of what they sign (SignatureCache): one message
// delivered to many subscriptions, or retried, is signed once.
//
// Thread-safety: loadOrCreate runs on the broker thread inside a unit (it
// reads and may write broker_keys). After that signEnvelope and
// certificatePem may be called from any thread at once (the cache has its
// own lock).
class NotificationSigner final {
public:
    // Loads the 'signing' key of `db`, or generates one (created_ms = `now`,
    // which also starts the certificate's validity) and stores it. A second
    // call on the same database loads the same key. Errors: InternalError
    // when the store fails, the stored PEM does not parse, or OpenSSL fails.
    static Result<std::unique_ptr<NotificationSigner>> loadOrCreate(Database &db, ClockTime now);

    ~NotificationSigner();
    NotificationSigner(const NotificationSigner &) = delete;
    NotificationSigner &operator=(const NotificationSigner &) = delete;

    // `envelopeJson` (a JSON object with "Type" Notification,
    // SubscriptionConfirmation or UnsubscribeConfirmation, "SignatureVersion"
    // "1" or "2" — "1" when absent — and the string keys the canonical
    // string needs) with "Signature" set; every other key and the key order
    // are kept (a missing "Signature" key is appended). Errors:
    // InvalidParameterValue for a malformed envelope (not JSON, unknown Type
    // or SignatureVersion, a needed key missing or not a string),
    // InternalError when OpenSSL fails.
    Result<std::string> signEnvelope(std::string_view envelopeJson) const;

    // The certificate, PEM ("-----BEGIN CERTIFICATE-----...").
    const std::string &certificatePem() const { return m_certificatePem; }

private:
    struct Key;
    NotificationSigner(std::unique_ptr<Key> key, std::string certificatePem);

    std::unique_ptr<Key> m_key;
    std::string m_certificatePem;
};

// The canonical string of `envelopeJson` (see NotificationSigner); the same
// errors as signEnvelope for a malformed envelope. Pure, thread-safe.
Result<std::string> canonicalSigningString(std::string_view envelopeJson);

// Checks the envelope's "Signature" against `certificatePem` the way a
// subscriber does: the public key of the X.509 certificate, the canonical
// string, SHA1 or SHA256 after "SignatureVersion", EVP_DigestVerify. False
// for anything that does not verify, including a malformed envelope or
// certificate. Pure, thread-safe.
bool verifyEnvelopeSignature(std::string_view envelopeJson, std::string_view certificatePem);

} // namespace relaydesk
