// SPDX-License-Identifier: MIT
#pragma once

#include "connections/aws_profiles.h"
#include "connections/aws_request_signer.h"
#include "connections/connection_error.h"

#include <QDateTime>
#include <QObject>

#include <functional>
#include <optional>
#include <vector>

namespace relaydesk {

// The credentials of an AWS profile when a request needs them:
//  - static keys (aws_access_key_id, aws_secret_access_key, aws_session_token)
//    at once;
//  - credential_process: the command run (QProcess, asynchronous: the thread
//    asking never waits), its standard output read as AWS documents it —
//    {"Version": 1, "AccessKeyId", "SecretAccessKey", "SessionToken"?,
//    "Expiration"? (ISO 8601)} — and kept until 5 minutes before its
//    Expiration (for the source's life without one). Callers asking while it
//    runs share the run. A failed run (not started, exit status not 0, output
//    not that JSON) answers a "profile" ConnectionError with the command's
//    standard error or the reason; the next request runs it again.
//  - neither: a "profile" error naming the profile.
// Lives on the thread that uses it; callbacks run there.
class AwsCredentialSource final : public QObject {
    Q_OBJECT
public:
    using Callback = std::function<void(ConnectionResult<AwsCredentials>)>;

    explicit AwsCredentialSource(AwsProfile profile, QObject *parent = nullptr);

    void credentials(Callback callback);

    // Reads credential_process output (pure; for tests).
    static ConnectionResult<AwsCredentials> readProcessOutput(const QByteArray &output,
                                                              std::optional<QDateTime> *expiration = nullptr);

    // The words of a credential_process command line as a POSIX shell splits
    // them (as the AWS CLI does): '…' literal, "…" with \" \\ \$ \` escapes,
    // a backslash outside quotes escapes the next character. Pure.
    static QStringList commandWords(const QString &command);

private:
    void runProcess();
    void finish(ConnectionResult<AwsCredentials> result);

    AwsProfile m_profile;
    std::optional<AwsCredentials> m_cached;
    std::optional<QDateTime> m_expiration;
    std::vector<Callback> m_waiting;
};

} // namespace relaydesk
