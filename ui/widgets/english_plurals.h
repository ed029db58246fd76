// SPDX-License-Identifier: MIT
#pragma once

#include <QTranslator>

namespace relaydesk {

// English plural forms for the window's counted texts (docs/window.md
// "Words and numbers"): a text given to tr() with a count `n` writes its
// plural as "(s)" — tr("%n message(s)", nullptr, n) — and this translator
// reads it as "1 message", "2 messages" (what an English .qm with numerus
// forms would do, without a Linguist build step). Texts without a count, or
// without "(s)", are left to the source. Installed once per application by
// installEnglishPlurals(). Thread: any (stateless).
class EnglishPlurals final : public QTranslator {
public:
    using QTranslator::QTranslator;
    QString translate(const char *context, const char *sourceText, const char *disambiguation = nullptr,
                      int n = -1) const override;
    bool isEmpty() const override { return false; }
};

// Installs one EnglishPlurals on the running application (a child of it);
// again is a no-op. After the QCoreApplication exists.
void installEnglishPlurals();

} // namespace relaydesk
