// SPDX-License-Identifier: MIT
#pragma once

#include <QMargins>
#include <QRect>

class QWidget;

namespace relaydesk {

// The geometry (the window without its frame) that puts a window of
// `geometry` with `frame` around it inside `available`: smaller when the
// window and its frame are larger than the area, moved in when any edge of the
// frame — title bar above, status bar below — lies outside it.
QRect placeInside(QRect geometry, const QMargins &frame, const QRect &available);

// The frame around `window`: the window manager's once it is known, else an
// assumed one (a title bar's height above, a few pixels around), so that a
// geometry saved without a frame and restored under a window manager never
// puts the title bar or the status bar off-screen. GUI thread.
QMargins frameOrAssumed(const QWidget &window);

// Whether the window manager's frame of `window` is known (a window shown
// under one; never on a display without a window manager).
bool frameKnown(const QWidget &window);

} // namespace relaydesk
