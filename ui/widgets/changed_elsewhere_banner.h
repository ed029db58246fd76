// SPDX-License-Identifier: MIT
#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

namespace relaydesk {

// The line above an editor when its entity changed elsewhere while it holds
// unapplied edits (no silent overwrite): the sentence and Reload / Keep
// editing. Or, without the buttons, a note that the entity is gone. Hidden
// until shown. Palette roles (tooltip colours), no fixed colours. GUI thread
// only; owns its child widgets.
class ChangedElsewhereBanner final : public QFrame {
    Q_OBJECT
public:
    explicit ChangedElsewhereBanner(QWidget *parent = nullptr);
    ~ChangedElsewhereBanner() override;
    ChangedElsewhereBanner(const ChangedElsewhereBanner &) = delete;
    ChangedElsewhereBanner &operator=(const ChangedElsewhereBanner &) = delete;

    // "The queue changed elsewhere…" with Reload and Keep editing.
    void showChanged(const QString &text);
    // A note without choices (the entity was deleted).
    void showGone(const QString &text);
    QString text() const;

signals:
    void reloadRequested();
    void keepEditingRequested();

private:
    QLabel *m_text = nullptr;
    QPushButton *m_reload = nullptr;
    QPushButton *m_keep = nullptr;
};

} // namespace relaydesk
