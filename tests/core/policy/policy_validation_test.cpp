// SPDX-License-Identifier: MIT
// Unit tests of policy validation (docs/behaviour.md §2.1 and 4.3) through
// checkPolicyDocument() and validatePolicy().
//
// Each row gives a document and the issues it must produce. An expected issue
// is written "FIELDS :: TEXTS":
//   FIELDS  alternatives separated by '|'; a trailing '*' matches a prefix;
//           an empty alternative is the document itself ("").
//   TEXTS   alternatives separated by '|', one of which the message must
//           contain (case-insensitive); empty = any non-empty message.
//   A leading '?' makes the issue allowed but not required (a second report
//   of the same problem that a reasonable implementation may or may not give).
// Every reported issue must match the FIELDS of some expected entry, so an
// error about an unrelated field fails the row, and a row with no expected
// errors requires zero errors.

#include "policy/policy_validation.h"
#include "policy/policy_json.h"
#include "support/test_main.h"

#include <QString>
#include <QStringList>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace relaydesk;

namespace relaydesk {
namespace {

struct Expectation {
    bool optional = false;
    QStringList fields;
    QStringList texts;
};

Expectation parseExpectation(const QString &spec)
{
    Expectation e;
    QString s = spec;
    if (s.startsWith(QLatin1Char('?'))) {
        e.optional = true;
        s.remove(0, 1);
    }
    const qsizetype sep = s.indexOf(QLatin1String(" :: "));
    const QString fields = sep < 0 ? s : s.left(sep);
    const QString texts = sep < 0 ? QString() : s.mid(sep + 4);
    e.fields = fields.trimmed().split(QLatin1Char('|'), Qt::KeepEmptyParts);
    for (QString &f : e.fields)
        f = f.trimmed();
    if (!texts.trimmed().isEmpty())
        e.texts = texts.trimmed().split(QLatin1Char('|'), Qt::SkipEmptyParts);
    return e;
}

bool fieldMatches(const Expectation &e, const QString &field)
{
    for (const QString &alt : e.fields) {
        if (alt.endsWith(QLatin1Char('*')) ? field.startsWith(alt.chopped(1)) : field == alt)
            return true;
    }
    return false;
}

bool textMatches(const Expectation &e, const QString &message)
{
    if (message.trimmed().isEmpty())
        return false;
    if (e.texts.isEmpty())
        return true;
    for (const QString &t : e.texts) {
        if (message.contains(t.trimmed(), Qt::CaseInsensitive))
            return true;
    }
    return false;
}

QString describe(const PolicyIssues &issues)
{
    QString out;
    for (const PolicyIssue &i : issues)
        out += QStringLiteral("\n    [%1] %2").arg(QString::fromStdString(i.field), QString::fromStdString(i.message));
    return out.isEmpty() ? QStringLiteral(" (none)") : out;
}

// Empty string if `issues` satisfies `expected`, else what is wrong.
QString mismatch(const PolicyIssues &issues, const QStringList &expected, const char *kind)
{
    QList<Expectation> expectations;
    for (const QString &spec : expected)
        expectations << parseExpectation(spec);

    for (const Expectation &e : expectations) {
        if (e.optional)
            continue;
        bool found = false;
        for (const PolicyIssue &i : issues)
            found = found || (fieldMatches(e, QString::fromStdString(i.field))
                              && textMatches(e, QString::fromStdString(i.message)));
        if (!found)
            return QStringLiteral("missing %1 {%2 :: %3}; got:%4")
                .arg(QLatin1String(kind), e.fields.join('|'), e.texts.join('|'), describe(issues));
    }
    for (const PolicyIssue &i : issues) {
        bool allowed = false;
        for (const Expectation &e : expectations)
            allowed = allowed || fieldMatches(e, QString::fromStdString(i.field));
        if (!allowed || i.message.empty())
            return QStringLiteral("unexpected %1 [%2] %3; got:%4")
                .arg(QLatin1String(kind), QString::fromStdString(i.field), QString::fromStdString(i.message),
                     describe(issues));
    }
    return {};
}

QString hrp(const QString &body) { return QStringLiteral(R"({"healthyRetryPolicy": {%1}})").arg(body); }

const QString kIntegerText = QStringLiteral("integer|whole number|number");
const QString kNegativeText = QStringLiteral("negative|0|≥|>=|at least");
const QString kFourNames[] = {QStringLiteral("linear"), QStringLiteral("arithmetic"), QStringLiteral("geometric"),
                              QStringLiteral("exponential")};

// Fields a reasonable implementation may blame for the 3600 s cap.
QString capFields(const QString &section)
{
    return QStringLiteral("|%1|%1.numRetries|%1.minDelayTarget|%1.maxDelayTarget|%1.numMinDelayRetries|"
                          "%1.numMaxDelayRetries")
        .arg(section);
}
// Fields a reasonable implementation may blame for the sum rule.
QString sumFields(const QString &section)
{
    return QStringLiteral("|%1|%1.numRetries|%1.numNoDelayRetries|%1.numMinDelayRetries|%1.numMaxDelayRetries")
        .arg(section);
}

} // namespace

class PolicyValidationTest final : public QObject {
    Q_OBJECT

private slots:
    void checkPolicyDocument_specRules_reportsExactly_data();
    void checkPolicyDocument_specRules_reportsExactly();
    void validatePolicy_model_pathsFollowForm_data();
    void validatePolicy_model_pathsFollowForm();
    void checkPolicyDocument_readableDocument_keepsModel();
    void endpointProtocol_names_roundTrip();
};

void PolicyValidationTest::checkPolicyDocument_specRules_reportsExactly_data()
{
    QTest::addColumn<QString>("document");
    QTest::addColumn<int>("protocol");
    QTest::addColumn<bool>("rawDelivery");
    QTest::addColumn<QStringList>("errors");
    QTest::addColumn<QStringList>("warnings");

    const int http = int(EndpointProtocol::Http);
    const int https = int(EndpointProtocol::Https);
    const int sqs = int(EndpointProtocol::Sqs);
    const QString H = QStringLiteral("healthyRetryPolicy");
    const QString snsExample = QStringLiteral(
        R"({"healthyRetryPolicy": {"minDelayTarget": 1, "maxDelayTarget": 60, "numRetries": 50,
            "numNoDelayRetries": 3, "numMinDelayRetries": 2, "numMaxDelayRetries": 35,
            "backoffFunction": "exponential"},
            "throttlePolicy": {"maxReceivesPerSecond": 10},
            "requestPolicy": {"headerContentType": "application/json"}})");

    // --- valid documents: zero errors, zero warnings ------------------------
    QTest::newRow("valid: empty document (defaults)") << "{}" << http << false << QStringList{} << QStringList{};
    QTest::newRow("valid: sns-example") << snsExample << http << false << QStringList{} << QStringList{};
    QTest::newRow("valid: sns-example https") << snsExample << https << false << QStringList{} << QStringList{};
    QTest::newRow("valid: no retries") << hrp(R"("numRetries": 0)") << http << false << QStringList{}
                                       << QStringList{};
    QTest::newRow("valid: 100 retries") << hrp(R"("numRetries": 100, "minDelayTarget": 1, "maxDelayTarget": 1)")
                                        << http << false << QStringList{} << QStringList{};
    QTest::newRow("valid: exactly 3600 s") << hrp(R"("numRetries": 9, "minDelayTarget": 400, "maxDelayTarget": 400)")
                                           << http << false << QStringList{} << QStringList{};
    QTest::newRow("valid: min = max = 3600, one retry")
        << hrp(R"("numRetries": 1, "minDelayTarget": 3600, "maxDelayTarget": 3600)") << http << false
        << QStringList{} << QStringList{};
    QTest::newRow("valid: every field, every function name")
        << hrp(R"("numRetries": 10, "numNoDelayRetries": 1, "numMinDelayRetries": 1, "numMaxDelayRetries": 1,
                  "minDelayTarget": 2, "maxDelayTarget": 30, "backoffFunction": "geometric")")
        << http << false << QStringList{} << QStringList{};
    QTest::newRow("valid: empty throttle section") << R"({"throttlePolicy": {}})" << http << false << QStringList{}
                                                   << QStringList{};
    QTest::newRow("valid: topic form")
        << R"({"http": {"defaultHealthyRetryPolicy": {"numRetries": 5, "minDelayTarget": 2, "maxDelayTarget": 40,
                        "backoffFunction": "arithmetic"},
                        "disableSubscriptionOverrides": true,
                        "defaultThrottlePolicy": {"maxReceivesPerSecond": 1},
                        "defaultRequestPolicy": {"headerContentType": "text/plain; charset=UTF-8"}}})"
        << http << false << QStringList{} << QStringList{};
    QTest::newRow("valid: zaqar empty") << R"({"_retry_policy": {}})" << http << false << QStringList{}
                                        << QStringList{};
    QTest::newRow("valid: zaqar blueprint example")
        << R"({"_retry_policy": {"retries_with_no_delay": 3, "minimum_delay_retries": 3, "minimum_delay": 5,
              "maximum_delay": 60, "maximum_delay_retries": 3, "retry_backoff_function": "linear",
              "ignore_subscription_override": false}})"
        << http << false << QStringList{} << QStringList{};

    // --- wrong types at every numeric field ----------------------------------
    const QStringList retryFields{"numRetries", "numNoDelayRetries", "numMinDelayRetries", "numMaxDelayRetries",
                                  "minDelayTarget", "maxDelayTarget"};
    const QList<QPair<QString, QString>> wrongValues{{"string", R"("5")"}, {"float", "3.5"}, {"bool", "true"},
                                                     {"null", "null"},     {"array", "[]"},  {"object", "{}"}};
    for (const QString &field : retryFields) {
        for (const auto &[kind, value] : wrongValues) {
            QTest::addRow("type: %s %s", qPrintable(field), qPrintable(kind))
                << hrp(QStringLiteral(R"("%1": %2)").arg(field, value)) << http << false
                << QStringList{QStringLiteral("%1.%2 :: %3").arg(H, field, kIntegerText)} << QStringList{};
        }
    }
    for (const auto &[kind, value] : wrongValues) {
        QTest::addRow("type: maxReceivesPerSecond %s", qPrintable(kind))
            << QStringLiteral(R"({"throttlePolicy": {"maxReceivesPerSecond": %1}})").arg(value) << http << false
            << QStringList{QStringLiteral("throttlePolicy.maxReceivesPerSecond :: %1").arg(kIntegerText)}
            << QStringList{};
    }
    QTest::newRow("type: backoffFunction number") << hrp(R"("backoffFunction": 3)") << http << false
                                                  << QStringList{H + ".backoffFunction :: "} << QStringList{};
    QTest::newRow("type: headerContentType number")
        << R"({"requestPolicy": {"headerContentType": 5}})" << http << false
        << QStringList{"requestPolicy.headerContentType :: "} << QStringList{};
    QTest::newRow("type: section not an object") << R"({"healthyRetryPolicy": 5})" << http << false
                                                 << QStringList{H + " :: "} << QStringList{};
    QTest::newRow("type: section is an array") << R"({"healthyRetryPolicy": []})" << http << false
                                               << QStringList{H + " :: "} << QStringList{};
    QTest::newRow("type: document is an array") << "[]" << http << false << QStringList{" :: "} << QStringList{};
    QTest::newRow("type: document is a number") << "5" << http << false << QStringList{" :: "} << QStringList{};

    // --- signs and ranges ------------------------------------------------------
    for (const char *field : {"numNoDelayRetries", "numMinDelayRetries", "numMaxDelayRetries"}) {
        QTest::addRow("range: %s negative", field)
            << hrp(QStringLiteral(R"("%1": -1)").arg(QLatin1String(field))) << http << false
            << QStringList{QStringLiteral("%1.%2 :: %3").arg(H, QLatin1String(field), kNegativeText)}
            << QStringList{};
    }
    QTest::newRow("range: numRetries negative")
        << hrp(R"("numRetries": -1)") << http << false
        << QStringList{H + ".numRetries :: " + kNegativeText, "?" + sumFields(H) + " :: "} << QStringList{};
    QTest::newRow("range: numRetries 101") << hrp(R"("numRetries": 101, "minDelayTarget": 1, "maxDelayTarget": 1)")
                                           << http << false << QStringList{H + ".numRetries :: 100"}
                                           << QStringList{};
    QTest::newRow("range: minDelayTarget 0") << hrp(R"("minDelayTarget": 0)") << http << false
                                             << QStringList{H + ".minDelayTarget :: 1"} << QStringList{};
    QTest::newRow("range: minDelayTarget negative") << hrp(R"("minDelayTarget": -5)") << http << false
                                                    << QStringList{H + ".minDelayTarget :: 1|negative"}
                                                    << QStringList{};
    QTest::newRow("range: maxDelayTarget 3601")
        << hrp(R"("numRetries": 1, "maxDelayTarget": 3601)") << http << false
        << QStringList{H + ".maxDelayTarget :: 3600"} << QStringList{};
    QTest::newRow("range: maxDelayTarget 3601 sqs")
        << hrp(R"("numRetries": 1, "maxDelayTarget": 3601)") << sqs << false
        << QStringList{H + ".maxDelayTarget :: 3600"} << QStringList{};
    QTest::newRow("range: min > max") << hrp(R"("minDelayTarget": 30, "maxDelayTarget": 10)") << http << false
                                      << QStringList{H + ".minDelayTarget|" + H + ".maxDelayTarget :: "}
                                      << QStringList{};
    QTest::newRow("range: maxReceivesPerSecond 0")
        << R"({"throttlePolicy": {"maxReceivesPerSecond": 0}})" << http << false
        << QStringList{"throttlePolicy.maxReceivesPerSecond :: 1"} << QStringList{};
    QTest::newRow("range: maxReceivesPerSecond negative")
        << R"({"throttlePolicy": {"maxReceivesPerSecond": -3}})" << http << false
        << QStringList{"throttlePolicy.maxReceivesPerSecond :: 1|negative"} << QStringList{};

    // --- sum rule --------------------------------------------------------------
    QTest::newRow("sum: constant phases exceed numRetries")
        << hrp(R"("numRetries": 3, "numNoDelayRetries": 2, "numMinDelayRetries": 1, "numMaxDelayRetries": 1)")
        << http << false << QStringList{sumFields(H) + " :: "} << QStringList{};
    QTest::newRow("sum: exactly numRetries is fine")
        << hrp(R"("numRetries": 4, "numNoDelayRetries": 2, "numMinDelayRetries": 1, "numMaxDelayRetries": 1)")
        << http << false << QStringList{} << QStringList{};

    // --- HTTP/S 3600 s cap -----------------------------------------------------
    const QString flat4000 = hrp(R"("numRetries": 10, "minDelayTarget": 400, "maxDelayTarget": 400)");
    QTest::newRow("cap: 4000 s http") << flat4000 << http << false << QStringList{capFields(H) + " :: 3600"}
                                      << QStringList{};
    QTest::newRow("cap: 4000 s https") << flat4000 << https << false << QStringList{capFields(H) + " :: 3600"}
                                       << QStringList{};
    QTest::newRow("cap: 4000 s sqs is fine") << flat4000 << sqs << false << QStringList{} << QStringList{};
    // The edge: 1 s before the backoff and 3599 / 3600 s after it, 3600 s in all is the most allowed.
    QTest::newRow("cap: exactly 3600 s is allowed")
        << hrp(R"("numRetries": 2, "numMinDelayRetries": 1, "numMaxDelayRetries": 1, "minDelayTarget": 1, "maxDelayTarget": 3599)")
        << http << false << QStringList{} << QStringList{};
    QTest::newRow("cap: 3601 s refused")
        << hrp(R"("numRetries": 2, "numMinDelayRetries": 1, "numMaxDelayRetries": 1, "minDelayTarget": 1, "maxDelayTarget": 3600)")
        << http << false << QStringList{capFields(H) + " :: plans 3601 s|3600"} << QStringList{};
    const QString postHeavy =
        hrp(R"("numRetries": 5, "numMaxDelayRetries": 4, "minDelayTarget": 1, "maxDelayTarget": 1000)");
    QTest::newRow("cap: post-backoff phase counts (4001 s)")
        << postHeavy << http << false << QStringList{capFields(H) + " :: 3600"} << QStringList{};
    QTest::newRow("cap: post-backoff phase, sqs") << postHeavy << sqs << false << QStringList{} << QStringList{};
    QTest::newRow("cap: pre-backoff phase counts (4000 s)")
        << hrp(R"("numRetries": 4, "numMinDelayRetries": 4, "minDelayTarget": 1000, "maxDelayTarget": 1000)")
        << https << false << QStringList{capFields(H) + " :: 3600"} << QStringList{};
    QTest::newRow("cap: sns-example with max 120")
        << hrp(R"("minDelayTarget": 1, "maxDelayTarget": 120, "numRetries": 50, "numNoDelayRetries": 3,
                  "numMinDelayRetries": 2, "numMaxDelayRetries": 35, "backoffFunction": "exponential")")
        << http << false << QStringList{capFields(H) + " :: 3600"} << QStringList{};
    QTest::newRow("cap: topic form")
        << R"({"http": {"defaultHealthyRetryPolicy": {"numRetries": 10, "minDelayTarget": 400, "maxDelayTarget": 400}}})"
        << http << false << QStringList{capFields("http.defaultHealthyRetryPolicy") + "|http :: 3600"}
        << QStringList{};
    QTest::newRow("cap: zaqar form (5..300 by 5 = 9150 s)")
        << R"({"_retry_policy": {"minimum_delay": 5, "maximum_delay": 300}})" << http << false
        << QStringList{"|_retry_policy|_retry_policy.minimum_delay|_retry_policy.maximum_delay|"
                       "_retry_policy.maximum_delay_retries|_retry_policy.minimum_delay_retries :: 3600"}
        << QStringList{};

    // --- unknown keys and names -----------------------------------------------
    QTest::newRow("unknown: minDelayTaget suggests minDelayTarget")
        << hrp(R"("minDelayTaget": 5)") << http << false << QStringList{H + ".minDelayTaget :: minDelayTarget"}
        << QStringList{};
    QTest::newRow("unknown: top-level key") << R"({"healthyRetryPolicy": {}, "colour": 1})" << http << false
                                            << QStringList{"colour :: "} << QStringList{};
    QTest::newRow("unknown: throttle key")
        << R"({"throttlePolicy": {"maxReceivesPerSec": 5}})" << http << false
        << QStringList{"throttlePolicy.maxReceivesPerSec :: "} << QStringList{};
    QTest::newRow("unknown: request key") << R"({"requestPolicy": {"contentType": "text/plain"}})" << http << false
                                          << QStringList{"requestPolicy.contentType :: "} << QStringList{};
    QStringList fourNames;
    for (const QString &name : kFourNames)
        fourNames << H + ".backoffFunction :: " + name;
    QTest::newRow("unknown: backoff name lists the four") << hrp(R"("backoffFunction": "cubic")") << http << false
                                                          << fourNames << QStringList{};
    QTest::newRow("unknown: backoff name is case-sensitive") << hrp(R"("backoffFunction": "Linear")") << http
                                                             << false << fourNames << QStringList{};

    // --- deprecated keys ---------------------------------------------------------
    QTest::newRow("deprecated: null and false accepted with warnings")
        << R"({"healthyRetryPolicy": {}, "sicklyRetryPolicy": null, "guaranteed": false})" << http << false
        << QStringList{}
        << QStringList{"sicklyRetryPolicy :: deprecated|ignored", "guaranteed :: deprecated|ignored"};
    QTest::newRow("deprecated: sicklyRetryPolicy {} rejected")
        << R"({"sicklyRetryPolicy": {}})" << http << false << QStringList{"sicklyRetryPolicy :: null"}
        << QStringList{"?sicklyRetryPolicy"};
    QTest::newRow("deprecated: guaranteed true rejected")
        << R"({"guaranteed": true})" << http << false << QStringList{"guaranteed :: false"}
        << QStringList{"?guaranteed"};

    // --- headerContentType (docs/behaviour.md §4.3) ----------------------------------------
    const auto request = [](const char *type) {
        return QStringLiteral(R"({"requestPolicy": {"headerContentType": "%1"}})").arg(QLatin1String(type));
    };
    const QString ct = QStringLiteral("requestPolicy.headerContentType :: ");
    QTest::newRow("content type: application/json") << request("application/json") << http << false
                                                    << QStringList{} << QStringList{};
    QTest::newRow("content type: text/plain; charset=UTF-8") << request("text/plain; charset=UTF-8") << http
                                                             << false << QStringList{} << QStringList{};
    QTest::newRow("content type: text/plain") << request("text/plain") << http << false << QStringList{}
                                              << QStringList{};
    QTest::newRow("content type: text/html rejected") << request("text/html") << http << false << QStringList{ct}
                                                      << QStringList{};
    QTest::newRow("content type: application/xml rejected") << request("application/xml") << http << false
                                                            << QStringList{ct} << QStringList{};
    QTest::newRow("content type: text/html with raw") << request("text/html") << http << true << QStringList{}
                                                      << QStringList{};
    QTest::newRow("content type: application/xml with raw") << request("application/xml") << http << true
                                                            << QStringList{} << QStringList{};
    QTest::newRow("content type: application/octet-stream with raw")
        << request("application/octet-stream") << http << true << QStringList{} << QStringList{};
    QTest::newRow("content type: topic level, raw does not widen")
        << R"({"http": {"defaultRequestPolicy": {"headerContentType": "text/html"}}})" << http << true
        << QStringList{"http.defaultRequestPolicy.headerContentType :: "} << QStringList{};

    // --- several errors at once --------------------------------------------------
    QTest::newRow("several: all reported")
        << R"({"healthyRetryPolicy": {"numRetries": 0, "minDelayTarget": 0, "maxDelayTarget": "x",
               "numNoDelayRetries": -1, "backoffFunction": "cubic"},
               "throttlePolicy": {"maxReceivesPerSecond": 0}, "colour": 1})"
        << http << false
        << QStringList{H + ".minDelayTarget :: 1", H + ".maxDelayTarget :: " + kIntegerText,
                       H + ".numNoDelayRetries :: " + kNegativeText, H + ".backoffFunction :: exponential",
                       "throttlePolicy.maxReceivesPerSecond :: 1", "colour :: "}
        << QStringList{};

    QTest::newRow("several: over 100 retries and over the cap")
        << hrp(R"("numRetries": 101, "minDelayTarget": 40, "maxDelayTarget": 40)") << http << false
        << QStringList{H + ".numRetries :: 100", capFields(H) + " :: 3600"} << QStringList{};
    // A backoff phase this long must not be listed to find the cap exceeded.
    QTest::newRow("several: two billion retries and over the cap")
        << hrp(R"("numRetries": 2000000000, "minDelayTarget": 1, "maxDelayTarget": 1)") << http << false
        << QStringList{H + ".numRetries :: 100", capFields(H) + " :: 3600"} << QStringList{};
    QTest::newRow("several: zaqar maximum_delay far over 3600 and over the cap")
        << R"({"_retry_policy": {"maximum_delay": 1000000000}})" << http << false
        << QStringList{"_retry_policy.maximum_delay :: 3600",
                       "|_retry_policy|_retry_policy.minimum_delay|_retry_policy.maximum_delay :: 3600",
                       "_retry_policy :: at most 100"}
        << QStringList{};
    // Zaqar bounds no count; Relaydesk holds a Zaqar policy to SNS's 100
    // retries in all, and sums the counts without overflowing.
    QTest::newRow("zaqar: 100 retries in all")
        << R"({"_retry_policy": {"retries_with_no_delay": 88, "minimum_delay_retries": 3, "maximum_delay_retries": 3}})"
        << http << false << QStringList{} << QStringList{};
    QTest::newRow("zaqar: 101 retries in all")
        << R"({"_retry_policy": {"retries_with_no_delay": 89, "minimum_delay_retries": 3, "maximum_delay_retries": 3}})"
        << http << false << QStringList{"_retry_policy :: plans 101 retries in all"} << QStringList{};
    QTest::newRow("zaqar: a million immediate retries")
        << R"({"_retry_policy": {"retries_with_no_delay": 1000000}})" << http << false
        << QStringList{"_retry_policy :: at most 100"} << QStringList{};
    QTest::newRow("zaqar: 2^31 - 1 immediate retries, phases summing past int")
        << R"({"_retry_policy": {"retries_with_no_delay": 2147483647, "minimum_delay_retries": 2147483647,
                                 "maximum_delay_retries": 5}})"
        << sqs << false << QStringList{"_retry_policy :: at most 100"} << QStringList{};
    QTest::newRow("several: over 100 retries, sqs has no cap")
        << hrp(R"("numRetries": 101, "minDelayTarget": 40, "maxDelayTarget": 40)") << sqs << false
        << QStringList{H + ".numRetries :: 100"} << QStringList{};

    // --- paths in each form ------------------------------------------------------
    QTest::newRow("path: subscription minDelayTarget") << hrp(R"("minDelayTarget": 0)") << http << false
                                                       << QStringList{"healthyRetryPolicy.minDelayTarget :: 1"}
                                                       << QStringList{};
    QTest::newRow("path: topic minDelayTarget")
        << R"({"http": {"defaultHealthyRetryPolicy": {"minDelayTarget": 0}}})" << http << false
        << QStringList{"http.defaultHealthyRetryPolicy.minDelayTarget :: 1"} << QStringList{};
    QTest::newRow("path: zaqar minimum_delay") << R"({"_retry_policy": {"minimum_delay": 0}})" << http << false
                                               << QStringList{"_retry_policy.minimum_delay :: 1"} << QStringList{};
    QTest::newRow("path: topic unknown key")
        << R"({"http": {"defaultHealthyRetryPolicy": {"minDelayTaget": 5}}})" << http << false
        << QStringList{"http.defaultHealthyRetryPolicy.minDelayTaget :: minDelayTarget"} << QStringList{};
    QTest::newRow("path: topic throttle 0")
        << R"({"http": {"defaultThrottlePolicy": {"maxReceivesPerSecond": 0}}})" << http << false
        << QStringList{"http.defaultThrottlePolicy.maxReceivesPerSecond :: 1"} << QStringList{};
    QTest::newRow("path: topic disableSubscriptionOverrides not a bool")
        << R"({"http": {"disableSubscriptionOverrides": "yes"}})" << http << false
        << QStringList{"http.disableSubscriptionOverrides :: "} << QStringList{};
    QTest::newRow("path: zaqar wrong type") << R"({"_retry_policy": {"maximum_delay": "60"}})" << http << false
                                            << QStringList{"_retry_policy.maximum_delay :: " + kIntegerText}
                                            << QStringList{};
    QTest::newRow("path: zaqar negative") << R"({"_retry_policy": {"retries_with_no_delay": -1}})" << http << false
                                          << QStringList{"_retry_policy.retries_with_no_delay :: " + kNegativeText}
                                          << QStringList{};
    QTest::newRow("path: zaqar unknown key") << R"({"_retry_policy": {"max_delay": 60}})" << http << false
                                             << QStringList{"_retry_policy.max_delay :: "} << QStringList{};
    QStringList zaqarNames;
    for (const QString &name : kFourNames)
        zaqarNames << "_retry_policy.retry_backoff_function :: " + name;
    QTest::newRow("path: zaqar unknown backoff name")
        << R"({"_retry_policy": {"retry_backoff_function": "cubic"}})" << http << false << zaqarNames
        << QStringList{};
    QTest::newRow("path: zaqar override flag not a bool")
        << R"({"_retry_policy": {"ignore_subscription_override": 1}})" << http << false
        << QStringList{"_retry_policy.ignore_subscription_override :: "} << QStringList{};
}

void PolicyValidationTest::checkPolicyDocument_specRules_reportsExactly()
{
    QFETCH(QString, document);
    QFETCH(int, protocol);
    QFETCH(bool, rawDelivery);
    QFETCH(QStringList, errors);
    QFETCH(QStringList, warnings);

    const nlohmann::json json = nlohmann::json::parse(document.toStdString());
    PolicyCheckContext context;
    context.protocol = EndpointProtocol(protocol);
    context.rawDelivery = rawDelivery;
    const PolicyValidation result = checkPolicyDocument(json, context);

    const QString errorProblem = mismatch(result.errors, errors, "error");
    QVERIFY2(errorProblem.isEmpty(), qPrintable(errorProblem));
    const QString warningProblem = mismatch(result.warnings, warnings, "warning");
    QVERIFY2(warningProblem.isEmpty(), qPrintable(warningProblem));
    QCOMPARE(result.valid(), errors.isEmpty());
}

// validatePolicy() on a model built by hand: the field paths follow policy.form.
void PolicyValidationTest::validatePolicy_model_pathsFollowForm_data()
{
    QTest::addColumn<int>("form");
    QTest::addColumn<QString>("minPath");
    QTest::addColumn<QString>("throttlePath");

    QTest::newRow("subscription") << int(PolicyForm::SnsSubscription) << "healthyRetryPolicy.minDelayTarget"
                                  << "throttlePolicy.maxReceivesPerSecond";
    QTest::newRow("topic") << int(PolicyForm::SnsTopic) << "http.defaultHealthyRetryPolicy.minDelayTarget"
                           << "http.defaultThrottlePolicy.maxReceivesPerSecond";
}

void PolicyValidationTest::validatePolicy_model_pathsFollowForm()
{
    QFETCH(int, form);
    QFETCH(QString, minPath);
    QFETCH(QString, throttlePath);

    DeliveryPolicy policy;
    policy.form = PolicyForm(form);
    RetryPolicy retry;
    retry.minDelayTarget = 0;
    policy.retry = retry;
    policy.hasThrottleSection = true;
    policy.maxReceivesPerSecond = 0;

    const PolicyIssues issues = validatePolicy(policy);
    const QString problem =
        mismatch(issues, QStringList{minPath + " :: 1", throttlePath + " :: 1"}, "error");
    QVERIFY2(problem.isEmpty(), qPrintable(problem));

    // The same model with the values fixed is valid.
    policy.retry->minDelayTarget = 1;
    policy.maxReceivesPerSecond = 1;
    QVERIFY2(validatePolicy(policy).empty(), qPrintable(describe(validatePolicy(policy))));
}

void PolicyValidationTest::checkPolicyDocument_readableDocument_keepsModel()
{
    const nlohmann::json json = nlohmann::json::parse(R"({"healthyRetryPolicy": {"numRetries": 7, "minDelayTarget": 0}})");
    const PolicyValidation result = checkPolicyDocument(json);
    QCOMPARE(result.form, PolicyForm::SnsSubscription);
    QVERIFY(!result.valid());
    QVERIFY(result.policy.has_value()); // range errors still leave a model
    QVERIFY(result.policy->retry.has_value());
    QCOMPARE(result.policy->retry->numRetries, 7);

    const PolicyValidation topic = checkPolicyDocument(nlohmann::json::parse(R"({"http": {}})"));
    QCOMPARE(topic.form, PolicyForm::SnsTopic);
    QVERIFY(topic.valid());
    const PolicyValidation zaqar = checkPolicyDocument(nlohmann::json::parse(R"({"_retry_policy": {}})"));
    QCOMPARE(zaqar.form, PolicyForm::Zaqar);
    QVERIFY(zaqar.valid());
}

void PolicyValidationTest::endpointProtocol_names_roundTrip()
{
    for (EndpointProtocol p : {EndpointProtocol::Http, EndpointProtocol::Https, EndpointProtocol::Sqs}) {
        EndpointProtocol parsed = p == EndpointProtocol::Http ? EndpointProtocol::Sqs : EndpointProtocol::Http;
        QVERIFY(parseEndpointProtocol(endpointProtocolName(p), parsed));
        QCOMPARE(parsed, p);
    }
    QCOMPARE(QString::fromUtf8(endpointProtocolName(EndpointProtocol::Http).data(),
                               qsizetype(endpointProtocolName(EndpointProtocol::Http).size())),
             QStringLiteral("http"));
    QCOMPARE(QString::fromUtf8(endpointProtocolName(EndpointProtocol::Https).data(),
                               qsizetype(endpointProtocolName(EndpointProtocol::Https).size())),
             QStringLiteral("https"));
    QCOMPARE(QString::fromUtf8(endpointProtocolName(EndpointProtocol::Sqs).data(),
                               qsizetype(endpointProtocolName(EndpointProtocol::Sqs).size())),
             QStringLiteral("sqs"));
    EndpointProtocol unused = EndpointProtocol::Http;
    QVERIFY(!parseEndpointProtocol("ftp", unused));
}

} // namespace relaydesk

RELAYDESK_TEST_MAIN(relaydesk::PolicyValidationTest)
#include "policy_validation_test.moc"
