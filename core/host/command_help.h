// SPDX-License-Identifier: MIT
#pragma once

#include <QCommandLineParser>
#include <QString>

namespace relaydesk {

// The help and version texts of every relaydesk command share one format,
// which installer/make_help_docs.py turns into the man page relaydesk(1) and
// the bash completion (so those never drift from the program):
//
//   Usage: relaydesk COMMAND SYNOPSIS        (further forms indented below it)
//   <blank line>
//   What the command does, in a paragraph.
//   <blank line>
//   Options:                                 (also "Commands:", "Arguments:")
//     --name VALUE           what it does    (continuation lines indented deeper)
//   <blank line>
//   Further paragraphs.
//
// A VALUE of the form a|b|c lists the values the option accepts.

// "relaydesk 0.1.0\n": what --version prints, on every command.
QString versionText();

// The parser's help text in that format: QCommandLineParser's first line
// names the running binary by its path, so it is replaced by
// "Usage: relaydesk <command> <synopsis>" and a blank line.
QString commandHelpText(const QCommandLineParser &parser, const QString &command, const QString &synopsis);

} // namespace relaydesk
