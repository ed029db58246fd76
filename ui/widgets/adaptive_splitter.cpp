// SPDX-License-Identifier: MIT
#include "widgets/adaptive_splitter.h"

#include <QResizeEvent>

#include <algorithm>

namespace relaydesk {
namespace {

// A pane's least size as layouts take it: its minimum size where one is set, else its hint.
QSize leastSizeOf(const QWidget &pane)
{
    const QSize hint = pane.minimumSizeHint();
    return {pane.minimumWidth() > 0 ? pane.minimumWidth() : hint.width(),
            pane.minimumHeight() > 0 ? pane.minimumHeight() : hint.height()};
}

} // namespace

AdaptiveSplitter::AdaptiveSplitter(QWidget *parent)
    : QSplitter(Qt::Horizontal, parent)
{
    setChildrenCollapsible(false);
}

int AdaptiveSplitter::sideBySideWidth() const
{
    int width = 0;
    int shown = 0;
    for (int i = 0; i < count(); ++i) {
        const QWidget *pane = widget(i);
        if (pane->isHidden())
            continue;
        const bool set = i < m_paneWidths.size() && m_paneWidths[i];
        width += set ? m_paneWidths[i]() : leastSizeOf(*pane).width();
        ++shown;
    }
    return width + std::max(0, shown - 1) * handleWidth();
}

void AdaptiveSplitter::setPaneWidth(int index, std::function<int()> width)
{
    if (m_paneWidths.size() <= index)
        m_paneWidths.resize(index + 1);
    m_paneWidths[index] = std::move(width);
}

QSize AdaptiveSplitter::minimumSizeHint() const
{
    int width = 0;
    int height = 0;
    for (int i = 0; i < count(); ++i) {
        const QWidget *pane = widget(i);
        if (pane->isHidden())
            continue;
        const QSize least = leastSizeOf(*pane);
        width = std::max(width, least.width());
        // Stacked, each pane at its preferred height (the page scrolls down, never sideways).
        height = orientation() == Qt::Vertical ? height + std::max(least.height(), pane->sizeHint().height()) + handleWidth()
                                               : std::max(height, least.height());
    }
    return {width, height};
}

void AdaptiveSplitter::resizeEvent(QResizeEvent *event)
{
    orientFor(event->size().width());
    QSplitter::resizeEvent(event);
}

bool AdaptiveSplitter::event(QEvent *event)
{
    if (event->type() == QEvent::LayoutRequest && isVisible())
        orientFor(width());
    return QSplitter::event(event);
}

void AdaptiveSplitter::orientFor(int width)
{
    const Qt::Orientation wanted = width >= sideBySideWidth() ? Qt::Horizontal : Qt::Vertical;
    if (wanted == orientation())
        return;
    if (orientation() == Qt::Horizontal)
        m_sideBySideSizes = sizes();
    setOrientation(wanted);
    if (wanted == Qt::Horizontal && !m_sideBySideSizes.isEmpty()) {
        setSizes(m_sideBySideSizes);
    } else if (wanted == Qt::Vertical) {
        QList<int> heights;
        for (int i = 0; i < count(); ++i)
            heights << widget(i)->sizeHint().height();
        setSizes(heights);
    }
    updateGeometry(); // the minimum height changes with the orientation
}

} // namespace relaydesk
