// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

#include <cstdio>

namespace relaydesk {

// `relaydesk policy render (FILE | - | --preset NAME) --out PATH.png|PATH.svg
//  [--size WxH] [--compare FILE2 | --compare-preset NAME] [--protocol P]`
// (docs/behaviour.md §8.1). `arguments` start with "render". Requires a QApplication (the
// caller creates it on the offscreen platform). Returns the exit status:
// 0 written, 1 invalid policy / unreadable input / write failure, 2 usage.
int runPolicyRenderCommand(const QStringList &arguments, FILE *out = stdout, FILE *err = stderr);

} // namespace relaydesk
