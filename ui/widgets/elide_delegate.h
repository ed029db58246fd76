// SPDX-License-Identifier: MIT
#pragma once

#include <QStyledItemDelegate>

namespace relaydesk {

// Draws a column's cut text elided at `mode` (Qt::ElideMiddle for
// time-ordered ids, whose first characters are alike on every row: the
// differing tail stays in sight), whatever the view's own elide mode.
// Ownership: a child of its view, as any delegate. Thread: GUI.
class ElideDelegate final : public QStyledItemDelegate {
    Q_OBJECT
public:
    ElideDelegate(Qt::TextElideMode mode, QObject *parent);
    Qt::TextElideMode mode() const { return m_mode; }

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;

private:
    Qt::TextElideMode m_mode = Qt::ElideMiddle;
};

} // namespace relaydesk
