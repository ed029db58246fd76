# SPDX-License-Identifier: MIT
# The Debian package (`installer/dev.sh package`, which configures build/release
# with CMAKE_INSTALL_PREFIX=/usr and runs cpack): relaydesk_VERSION_amd64.deb
# and its debug symbols, relaydesk-dbgsym_VERSION_amd64.ddeb.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME relaydesk)
set(CPACK_PACKAGE_VENDOR "Relaydesk maintainers")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "Relaydesk maintainers <maintainers@users.noreply.a-seed-7130bf12.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "local Amazon SQS and SNS broker with a delivery-policy editor")
# The long description, below the summary; "." alone is Debian's blank line
# (and no double quotes: cpack would mangle them).
string(CONCAT CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "Relaydesk administers message queues, topics and notification retry\n"
    "policies on your own machine, in a window or from the command line.\n"
    ".\n"
    "Its broker speaks the Amazon SQS (JSON and query) and SNS protocols, so\n"
    "the AWS SDKs and the aws command-line tool talk to it unchanged but for\n"
    "the endpoint URL; it keeps queues, topics, subscriptions and messages in\n"
    "one SQLite file and delivers to HTTP/S endpoints with each subscription's\n"
    "retry policy. The command relaydesk serve runs it headless, as a test harness\n"
    "with a virtual clock.\n"
    ".\n"
    "The window's policy editor shows what a delivery policy means: a\n"
    "four-phase chart, every retry's delay, totals and validation against the\n"
    "service's limits; relaydesk policy explain, validate, render and diff\n"
    "do the same without a display.")
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
include(CPack)
