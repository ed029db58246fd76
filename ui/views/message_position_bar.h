// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QAction;
class QLabel;
class QTableView;
class QToolButton;

namespace relaydesk {

class MessageBrowseModel;

// Where the Messages table is in a large queue (docs/window.md "Messages"):
// "Row N of M" — N the current row's place in the whole queue, M the queue's
// depth (not the loaded rows) — and End of Queue (Ctrl+End), which loads the
// queue's last page without the pages before it (MessageBrowseModel::jumpToEnd)
// and selects the last message; Start of Queue (Ctrl+Home) goes back. At the
// end, scrolling to the top reads the page before. Ownership: borrows the
// model and the table. GUI thread.
class MessagePositionBar final : public QWidget {
    Q_OBJECT
public:
    // The shortcuts act while focus is within `scope` (the page).
    MessagePositionBar(MessageBrowseModel *model, QTableView *table, QWidget *scope, QWidget *parent = nullptr);

    QLabel *position() const { return m_position; }
    QAction *endOfQueue() const { return m_end; }
    QAction *startOfQueue() const { return m_start; }

private:
    void update();
    void selectRow(int row);

    MessageBrowseModel *m_model = nullptr;
    QTableView *m_table = nullptr;
    QLabel *m_position = nullptr;
    QAction *m_end = nullptr;
    QAction *m_start = nullptr;
    bool m_selectLast = false;   // after End of Queue: the last row, once loaded
    bool m_selectFirst = false;  // after Start of Queue: the first row, once loaded
};

} // namespace relaydesk
