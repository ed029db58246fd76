// SPDX-License-Identifier: MIT
#pragma once

#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace relaydesk {

// One profile of the AWS shared config and credentials files, as the AWS
// CLI and SDKs read them (docs/window.md "AWS profiles"):
//  - config: `[default]` or `[profile NAME]`; credentials: `[NAME]`. The
//    credentials file's keys win over the config file's for the same name.
//  - region, endpoint_url (every service), `services = NAME` naming a
//    `[services NAME]` section whose `sqs =` / `sns =` sub-sections (indented
//    `key = value` lines) may give a service its own endpoint_url;
//  - aws_access_key_id, aws_secret_access_key, aws_session_token,
//    credential_process (a command printing the credentials as JSON).
// Lines starting with # or ; are comments; names and keys are case-sensitive
// as in the files, keys are trimmed.
struct AwsProfile {
    QString name;
    QString region;
    QString endpointUrl;
    QMap<QString, QString> serviceEndpoints;   // "sqs" → endpoint_url of its services sub-section
    QString accessKeyId;
    QString secretAccessKey;
    QString sessionToken;
    QString credentialProcess;

    // The endpoint for SERVICE ("sqs", "sns"): its own, the profile's, or
    // https://SERVICE.REGION.amazonaws.com.
    QString endpointFor(const QString &service) const;
};

// Where the files are: AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE, else
// ~/.aws/config and ~/.aws/credentials.
struct AwsProfileFiles {
    QString configPath;
    QString credentialsPath;

    static AwsProfileFiles fromEnvironment();
};

// The profiles of the two files' texts, in the order they first appear
// (config first); `problems` names each line that could not be read.
struct AwsProfileList {
    std::vector<AwsProfile> profiles;
    QStringList problems;

    const AwsProfile *find(const QString &name) const;
};
AwsProfileList readAwsProfiles(const QString &configText, const QString &credentialsText);
// The same from the files (a missing file is an empty one).
AwsProfileList readAwsProfiles(const AwsProfileFiles &files);

} // namespace relaydesk
