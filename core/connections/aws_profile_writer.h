// SPDX-License-Identifier: MIT
#pragma once

#include "connections/aws_profiles.h"

#include <QString>

namespace relaydesk {

// Adding a profile to the AWS files (the window's "Add Connection", written
// in the AWS files' own format): a new section appended at the end of each
// file's text, every existing byte kept (comments, order, spacing); a blank
// line before it when the text does not end with one. The config file gets
// `[profile NAME]` (`[default]` for "default") with region, endpoint_url and
// credential_process; the credentials file `[NAME]` with the keys and the
// session token. Only members that are set are written; a file with nothing
// to add is returned unchanged.
struct AwsProfileTexts {
    QString config;
    QString credentials;
};

struct AwsProfileAddition {
    AwsProfileTexts texts;
    QString error;   // empty on success; then the texts are unchanged
};

// Refuses (error, nothing changed) a name that is empty, has whitespace or
// brackets, or that either file already has.
AwsProfileAddition addAwsProfile(const AwsProfileTexts &current, const AwsProfile &profile);

// The same on the files: both written whole (QSaveFile), the credentials
// file owner-only (0600). Empty on success, else the error.
QString addAwsProfile(const AwsProfileFiles &files, const AwsProfile &profile);

} // namespace relaydesk
