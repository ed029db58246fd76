#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the man page relaydesk(1) and the bash completion from the program's own help.

    make_help_docs.py --program PATH/relaydesk --man OUT.1 --completion OUT.bash
                      [--date YYYY-MM-DD] [--examples DIR]

Runs `relaydesk --help`, then `relaydesk COMMAND --help` for every command its
"Commands:" section names, recursively (so `policy`, then `policy explain`,
...). Every help text has the format of core/host/command_help.h: a
"Usage:" line (further forms indented below it), paragraphs, and sections
("Options:", "Commands:", "Arguments:") of two-space indented entries
"TERM  description". A command or option added to a help text appears in the
man page and the completion at the next build, with nothing else to edit.
"""
import argparse
import os
import re
import subprocess
import sys


def run_help(program, words):
    env = dict(os.environ)
    for name in ("DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(name, None)
    done = subprocess.run([program, *words, "--help"], capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0 or not done.stdout.startswith("Usage: "):
        sys.exit(f"make_help_docs: 'relaydesk {' '.join(words + ['--help'])}' exited {done.returncode}: "
                 f"{done.stdout[:200]}{done.stderr[:400]}")
    return done.stdout


class Entry:
    """One line of a section: `term` ("-h, --help", "--db PATH", "serve", "FILE") and its description."""

    def __init__(self, term, description):
        self.term = term
        self.description = description

    def names(self):
        """The option names of an option entry: ["-h", "--help"]."""
        return [n for n in re.findall(r"(?:^|,\s*)(--?[A-Za-z0-9][\w-]*)", self.term)]

    def value(self):
        """The value an option takes ("PATH|:memory:", "http|https|sqs") or ""."""
        match = re.match(r"^(?:-[\w-]+,\s*)*--?[\w-]+[ =]<?([^>]*)>?$", self.term)
        return match.group(1).strip() if match else ""


class Help:
    """One command's parsed help text."""

    def __init__(self, words, text):
        self.words = words
        self.usage = []       # forms after "Usage: ", e.g. "relaydesk serve [options]"
        self.blocks = []      # ("text", [lines]) and ("section", title, [Entry])
        lines = text.rstrip("\n").split("\n")
        self.usage.append(lines[0][len("Usage: "):].strip())
        i = 1
        while i < len(lines) and lines[i].startswith(" ") and lines[i].strip():
            self.usage.append(lines[i].strip())
            i += 1
        section = None
        for line in lines[i:]:
            if not line.strip():
                section = None
                continue
            header = re.match(r"^([A-Z][^:]*):$", line)
            if header:
                section = ("section", header.group(1), [])
                self.blocks.append(section)
                continue
            indent = len(line) - len(line.lstrip(" "))
            if section is not None and indent > 0:
                if indent <= 4:
                    parts = re.split(r" {2,}", line.strip(), maxsplit=1)
                    section[2].append(Entry(parts[0], parts[1] if len(parts) > 1 else ""))
                elif section[2]:
                    last = section[2][-1]
                    last.description = (last.description + " " + line.strip()).strip()
                continue
            section = None
            if self.blocks and self.blocks[-1][0] == "text":
                self.blocks[-1][1].append(line.strip())
            else:
                self.blocks.append(("text", [line.strip()]))

    def section(self, title):
        for block in self.blocks:
            if block[0] == "section" and block[1] == title:
                return block[2]
        return []

    def commands(self):
        return [e.term.split()[0] for e in self.section("Commands") if re.match(r"^[a-z][\w-]*$", e.term.split()[0])]

    def options(self):
        return self.section("Options")

    def text_lines(self):
        return [line for block in self.blocks if block[0] == "text" for line in block[1]]


def collect(program):
    """Every command's help, depth first: [Help([]), Help(["serve"]), Help(["policy"]), Help(["policy", "explain"])...]."""
    helps = []

    def visit(words):
        help_ = Help(words, run_help(program, words))
        helps.append(help_)
        for command in help_.commands():
            visit(words + [command])

    visit([])
    return helps


def version_of(program):
    done = subprocess.run([program, "--version"], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def presets_of(helps):
    for help_ in helps:
        for line in help_.text_lines():
            match = re.match(r"^Presets: (.*)$", line)
            if match:
                return [p.strip() for p in match.group(1).split(",") if p.strip()]
    return []


# ---------------------------------------------------------------- man page

SPECIAL = {"\u2014": r"\(em", "\u2013": r"\(en", "\u2192": r"\(->", "\u2026": "...", "\u00d7": r"\(mu",
           "\u2018": r"\(oq", "\u2019": r"\(cq", "\u201c": r"\(lq", "\u201d": r"\(rq"}


def escape(text):
    """Plain text as troff text: backslashes, hyphens, non-ASCII characters, leading dots."""
    out = []
    for ch in text:
        if ch == "\\":
            out.append(r"\e")
        elif ch == "-":
            out.append(r"\-")
        elif ord(ch) > 127:
            out.append(SPECIAL.get(ch, r"\[u%04X]" % ord(ch)))
        else:
            out.append(ch)
    result = "".join(out)
    return "\\&" + result if result[:1] in (".", "'") else result


def styled(text):
    """Options and command words in bold, metavariables (PATH, FILE, NAME) in italics."""
    pieces = re.split(r"(--?[A-Za-z][\w-]*|\b[A-Z][A-Z0-9_]*[A-Z0-9]\b|\b[A-Z]\b)", text)
    out = []
    for i, piece in enumerate(pieces):
        if i % 2 == 0:
            out.append(escape(piece))
        elif piece.startswith("-"):
            out.append(r"\fB" + escape(piece) + r"\fR")
        else:
            out.append(r"\fI" + escape(piece) + r"\fR")
    result = "".join(out)
    return result[2:] if result.startswith("\\&") and not text.startswith((".", "'")) else result


def synopsis_line(form):
    words = form.split(" ")
    head = []
    while words and re.match(r"^[a-z][\w|-]*$", words[0]):
        head.append(words.pop(0))
    return r"\fB" + escape(" ".join(head)) + r"\fR" + (" " + styled(" ".join(words)) if words else "")


def paragraph(lines):
    """Help lines as one troff paragraph: wrapped prose joined, one-fact lines ("Presets: ...") kept apart."""
    out = [".PP"]
    for i, line in enumerate(lines):
        # a short line, or one ending a sentence, is not hard-wrapped prose
        if i > 0 and (lines[i - 1].endswith((".", ":")) or len(lines[i - 1]) < 70 or re.match(r"^[A-Z][\w ]*: ", line)):
            out.append(".br")
        out.append(styled(line))
    return out


def entries(items):
    out = []
    for entry in items:
        out += [".TP", styled(entry.term), styled(entry.description) if entry.description else r"\&"]
    return out


def blocks_of(help_):
    out = []
    for block in help_.blocks:
        if block[0] == "text":
            out += paragraph(block[1])
        else:
            out += [".PP", r"\fB" + escape(block[1]) + r"\fR"] + entries(block[2])
    return out


def man_page(helps, version, date, examples):
    top = helps[0]
    lines = [
        '.\\" Generated by installer/make_help_docs.py from the --help texts of ' + escape(version) + "; do not edit.",
        '.TH RELAYDESK 1 "%s" "%s" "User Commands"' % (date, escape(version)),
        ".SH NAME",
        r"relaydesk \- local Amazon SQS and SNS broker, delivery-policy workbench and desktop window",
        ".SH SYNOPSIS",
    ]
    forms = []
    for help_ in helps:
        forms += [form for form in help_.usage if form not in forms]
    for i, form in enumerate(forms):
        if i:
            lines.append(".br")
        lines.append(synopsis_line(form))
    lines += [".SH DESCRIPTION"]
    lines += blocks_of(top)
    lines += [".SH COMMANDS"]
    for help_ in helps[1:]:
        lines += [".SS " + '"' + escape("relaydesk " + " ".join(help_.words)) + '"']
        for i, form in enumerate(help_.usage):
            lines += [".PP" if i == 0 else ".br", synopsis_line(form)]
        lines += blocks_of(help_)
    lines += [
        ".SH FILES",
        ".TP",
        r"\fI~/.local/share/Relaydesk/Relaydesk/relaydesk.db\fR",
        r"The default database of the window and of \fBrelaydesk serve\fR (under \fI$XDG_DATA_HOME\fR when set).",
    ]
    if examples:
        lines += [".TP", r"\fI" + escape(examples) + r"/\fR",
                  "Example delivery policies in the three JSON forms and an example "
                  r"\fB\-\-config\fR file."]
    lines += [
        ".SH EXIT STATUS",
        r"0 success; 1 an invalid policy, unreadable input or a failure to start; 2 a usage error "
        r"(an unknown option or a missing argument).",
        ".SH SEE ALSO",
        r"\fBaws\fR(1)",
    ]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- bash completion

def quote(words):
    return "'" + " ".join(words).replace("'", "'\\''") + "'"


def value_completion(entry, presets):
    """The bash statements completing the value of an option, or None when it takes no value."""
    value = entry.value()
    if not value:
        return None
    if "preset" in " ".join(entry.names()) and value == "NAME":
        return "COMPREPLY=($(compgen -W %s -- \"$cur\"))" % quote(presets)
    alternatives = value.split("|")
    is_file = [bool(re.match(r"^(PATH|FILE|DIR)\d*(\.\w+)?$", a)) for a in alternatives]
    words = [a for a, f in zip(alternatives, is_file) if not f and not re.match(r"^[A-Z][A-Z0-9]*$", a)]
    if any(is_file):
        extra = " -W %s" % quote(words) if words else ""
        return "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f%s -- \"$cur\"))" % extra
    if len(alternatives) > 1 and words:
        return "COMPREPLY=($(compgen -W %s -- \"$cur\"))" % quote(words)
    return "COMPREPLY=()"   # a number, an address: nothing to offer


def completion(helps, version):
    presets = presets_of(helps)
    out = [
        "# bash completion for relaydesk(1), %s." % version,
        "# Generated by installer/make_help_docs.py from the program's --help texts; do not edit.",
        "_relaydesk() {",
        "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}",
        "    local path='' word i",
        "    for ((i = 1; i < COMP_CWORD; i++)); do",
        "        word=${COMP_WORDS[i]}",
        '        case "$path/$word" in',
    ]
    for help_ in helps[1:]:
        key = "/".join(help_.words)
        parent = "/".join(help_.words[:-1])
        out.append("            %s) path=%s ;;" % (quote([parent + "/" + help_.words[-1]]), quote([key])))
    out += ["        esac", "    done", "    local commands='' options=''", '    case "$path" in']
    for help_ in helps:
        options = [n for e in help_.options() for n in e.names()]
        out.append("        %s) commands=%s; options=%s ;;" % (quote(["/".join(help_.words)]), quote(help_.commands()),
                                                                quote(options)))
    out += ["    esac", '    case "$path $prev" in']
    for help_ in helps:
        for entry in help_.options():
            statement = value_completion(entry, presets)
            if statement is None:
                continue
            patterns = "|".join(quote(["/".join(help_.words) + " " + n]) for n in entry.names())
            out.append("        %s) %s; return 0 ;;" % (patterns, statement))
    out += [
        "    esac",
        '    if [[ $cur == -* ]]; then',
        '        COMPREPLY=($(compgen -W "$options" -- "$cur"))',
        '    elif [ -n "$commands" ]; then',
        '        COMPREPLY=($(compgen -W "$commands" -- "$cur"))',
        "    else",
        '        compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur"))',
        "    fi",
        "    return 0",
        "}",
        "complete -F _relaydesk relaydesk",
    ]
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--program", required=True)
    parser.add_argument("--man", required=True)
    parser.add_argument("--completion", required=True)
    parser.add_argument("--date", default="")
    parser.add_argument("--examples", default="")
    arguments = parser.parse_args()
    helps = collect(arguments.program)
    version = version_of(arguments.program)
    with open(arguments.man, "w", encoding="utf-8") as page:
        page.write(man_page(helps, version, arguments.date, arguments.examples))
    with open(arguments.completion, "w", encoding="utf-8") as script:
        script.write(completion(helps, version))


if __name__ == "__main__":
    main()
