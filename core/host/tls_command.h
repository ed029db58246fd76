// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

#include <cstdio>

namespace relaydesk {

// `relaydesk tls ca`: makes the local CA on first use
// (host/local_certificate_authority.h) and prints the path of its
// certificate, the one file clients trust (docs/harness.md "TLS").
// Exit status 0, 1 when the CA cannot be made, 2 on a usage error.
// Needs a QCoreApplication (the data folder's names).
int runTlsCommand(const QStringList &arguments, FILE *out, FILE *err);

} // namespace relaydesk
