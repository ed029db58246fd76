// SPDX-License-Identifier: MIT
#pragma once

#include <QLayout>
#include <QList>

class QLabel;

namespace relaydesk {

// A row of widgets (buttons, chips) that wraps onto further rows when the
// width does not hold them all, instead of making the page wider: with larger
// fonts or a narrow window every button stays in sight, nothing scrolls
// sideways. Items keep their size hints; heightForWidth() gives the rows'
// height. Ownership: owns its layout items, as any QLayout. Thread: GUI.
class FlowLayout final : public QLayout {
public:
    explicit FlowLayout(QWidget *parent = nullptr, int spacing = 6);
    ~FlowLayout() override;
    FlowLayout(const FlowLayout &) = delete;
    FlowLayout &operator=(const FlowLayout &) = delete;

    void addItem(QLayoutItem *item) override;
    // Puts `widget` at `index` (0 = first; past the end = last).
    void insertWidget(int index, QWidget *widget);
    int count() const override { return int(m_items.size()); }
    QLayoutItem *itemAt(int index) const override { return m_items.value(index); }
    QLayoutItem *takeAt(int index) override;
    Qt::Orientations expandingDirections() const override { return {}; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override { return arrange(QRect(0, 0, width, 0), false); }
    void setGeometry(const QRect &rect) override;
    QSize sizeHint() const override;
    QSize minimumSize() const override;

private:
    int arrange(const QRect &rect, bool place) const; // the height used

    QList<QLayoutItem *> m_items;
};

// `label` and its `field` side by side in one widget (a child of `parent`),
// so that a flow row wraps before the label, never between the two.
QWidget *labelledPair(QLabel *label, QWidget *field, QWidget *parent);

} // namespace relaydesk
