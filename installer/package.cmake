# SPDX-License-Identifier: MIT
# The Debian package (`installer/dev.sh package`, which configures build/release
# with CMAKE_INSTALL_PREFIX=/usr and runs cpack): relaydesk_VERSION_amd64.deb
# and its debug symbols, relaydesk-dbgsym_VERSION_amd64.ddeb.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME relaydesk)
set(CPACK_PACKAGE_VENDOR "Relaydesk maintainers")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "Relaydesk maintainers <maintainers@users.noreply.a-seed-7130bf12.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "administer local Amazon SQS queues, SNS topics and retry policies")
# The long description, below the summary; "." alone is Debian's blank line
# (and no double quotes: cpack would mangle them).
string(CONCAT CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "Relaydesk administers message queues, topics and notification retry\n"
    "policies on your own machine, in a window or from the command line.\n"
    ".\n"
    "Its embedded broker speaks the Amazon SQS (JSON and query) and SNS\n"
    "protocols, so the AWS SDKs and the aws command-line tool talk to it\n"
    "unchanged but for the endpoint URL; it keeps queues, topics,\n"
    "subscriptions and messages in one SQLite file across restarts and\n"
    "delivers to HTTP/S endpoints with each subscription's retry policy.\n"
    ".\n"
    "The window creates and edits queues, topics and subscriptions, sends,\n"
    "publishes and browses messages, moves dead letters back, and shows every\n"
    "delivery attempt on a live chart of the four retry phases, beside a\n"
    "dashboard of rates and queue depths. Its policy editor shows what a\n"
    "delivery policy means: every retry's delay, totals and validation\n"
    "against the service's limits.\n"
    ".\n"
    "The command relaydesk serve runs the broker headless, as a test harness\n"
    "with a virtual clock; relaydesk policy explain, validate, render and\n"
    "diff work without a display.")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/relaydesk/relaydesk")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)            # relaydesk_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)             # the libraries the binary links (dpkg-shlibdeps)
# What the binary needs but does not link: the Qt platform plugins (X11, and
# Wayland when installed) and a font for the window and the rendered charts.
# (OpenSSL, which Qt's TLS plugin loads, comes with libqt6network6.)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins, fonts-dejavu-core | fonts-freefont-ttf | fonts-liberation2")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "qt6-wayland")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "awscli")
# relaydesk-dbgsym_VERSION_amd64.ddeb: cpack moves the debug info (-g) out of
# the binary into it, by build id (so no CPACK_STRIP_FILES, which would drop it).
set(CPACK_DEBIAN_DEBUGINFO_PACKAGE ON)
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
# `package_source`: one .tar.gz of the checkout as git would list it — no
# build trees (installer/dev.sh puts them inside the checkout, under build/),
# no .git, nothing .gitignore leaves out.
set(CPACK_SOURCE_GENERATOR TGZ)
string(REGEX REPLACE "([][+.*()^$?|\\])" "\\\\\\1" checkout "${PROJECT_SOURCE_DIR}") # as a regex
set(CPACK_SOURCE_IGNORE_FILES
    "^${checkout}/\\.git/"
    "^${checkout}/build[^/]*/"
    "^${checkout}/\\.cache/"
    "\\.user$"
    "/compile_commands\\.json$")
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_CURRENT_LIST_DIR}/cpack_per_generator.cmake)
include(CPack)
