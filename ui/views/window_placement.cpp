// SPDX-License-Identifier: MIT
#include "views/window_placement.h"

#include <QStyle>
#include <QWidget>

#include <algorithm>

namespace relaydesk {

QRect placeInside(QRect geometry, const QMargins &frame, const QRect &available)
{
    const QSize room = available.size().shrunkBy(frame);
    geometry.setSize(geometry.size().boundedTo(room));
    const QRect inner = available.marginsRemoved(frame); // where the window itself may lie
    geometry.moveLeft(std::clamp(geometry.left(), inner.left(), std::max(inner.left(), inner.right() - geometry.width() + 1)));
    geometry.moveTop(std::clamp(geometry.top(), inner.top(), std::max(inner.top(), inner.bottom() - geometry.height() + 1)));
    return geometry;
}

bool frameKnown(const QWidget &window)
{
    return window.frameGeometry() != window.geometry();
}

QMargins frameOrAssumed(const QWidget &window)
{
    if (frameKnown(window)) {
        const QRect frame = window.frameGeometry();
        const QRect inner = window.geometry();
        return {inner.left() - frame.left(), inner.top() - frame.top(), frame.right() - inner.right(),
                frame.bottom() - inner.bottom()};
    }
    // Window managers draw title bars of about two lines of text; borders of a few pixels.
    const int border = 4;
    const int title = std::max(window.style()->pixelMetric(QStyle::PM_TitleBarHeight, nullptr, &window),
                               2 * window.fontMetrics().height());
    return {border, title + border, border, border};
}

} // namespace relaydesk
