// SPDX-License-Identifier: MIT
#include "charts/time_navigation.h"

#include <QChart>
#include <QChartView>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QToolButton>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace relaydesk {

TimeNavigation::TimeNavigation(QChartView *view, QWidget *buttonParent) : QObject(view), m_view(view)
{
    if (buttonParent == nullptr)
        buttonParent = view; // a chart made without a parent: its buttons go with it
    m_follow = new QToolButton(buttonParent);
    m_follow->setObjectName(QStringLiteral("followNow"));
    m_follow->setText(tr("Follow now"));
    m_follow->setCheckable(true);
    m_follow->setToolTip(tr("Show the latest window, moving with the clock (End)"));
    m_fit = new QToolButton(buttonParent);
    m_fit->setObjectName(QStringLiteral("fitAll"));
    m_fit->setText(tr("Fit all"));
    m_fit->setCheckable(true);
    m_fit->setToolTip(tr("Show everything the chart holds (Home). Wheel: zoom; drag: pan; "
                         "on the chart + / − zoom and ← / → pan"));
    connect(m_follow, &QToolButton::clicked, this, [this] { setMode(Mode::FollowNow); });
    connect(m_fit, &QToolButton::clicked, this, [this] { setMode(Mode::FitAll); });
    m_view->setFocusPolicy(Qt::StrongFocus);
    m_view->setToolTip(tr("Wheel: zoom · drag: pan · + / − zoom · ← / → pan · Home: fit all · End: follow now"));
    m_view->installEventFilter(this);
    m_view->viewport()->installEventFilter(this);
    syncButtons();
}

void TimeNavigation::setMode(Mode mode)
{
    m_mode = mode;
    syncButtons();
    emit changed();
}

void TimeNavigation::showRange(Range range)
{
    if (range.span() < kLeastSpanMs) {
        const std::int64_t middle = range.fromMs + range.span() / 2;
        range = {middle - kLeastSpanMs / 2, middle + kLeastSpanMs / 2};
    }
    m_chosen = range;
    setMode(Mode::Chosen);
}

TimeNavigation::Range TimeNavigation::rangeFor(Range follow, std::optional<Range> all)
{
    switch (m_mode) {
    case Mode::FollowNow: m_shown = follow; break;
    case Mode::Chosen: m_shown = m_chosen; break;
    case Mode::FitAll:
        if (!all) {
            m_shown = follow;
            break;
        }
        {
            const std::int64_t margin = std::max<std::int64_t>(all->span() * 3 / 100, kLeastSpanMs / 2);
            m_shown = {all->fromMs - margin, all->toMs + margin};
        }
        break;
    }
    return m_shown;
}

void TimeNavigation::zoom(double factor, double anchor)
{
    const Range from = m_shown;
    const double span = std::clamp(double(from.span()) * factor, double(kLeastSpanMs), double(kLongestSpanMs));
    const double at = double(from.fromMs) + double(from.span()) * anchor;
    const auto start = std::llround(at - span * anchor);
    showRange({start, start + std::llround(span)});
}

void TimeNavigation::pan(double fraction)
{
    const auto by = std::llround(double(m_shown.span()) * fraction);
    showRange({m_shown.fromMs + by, m_shown.toMs + by});
}

double TimeNavigation::plotWidth() const
{
    return std::max(1.0, m_view->chart()->plotArea().width());
}

double TimeNavigation::plotFraction(double x) const
{
    const QPointF inChart = m_view->chart()->mapFromScene(m_view->mapToScene(QPoint(int(x), 0)));
    return std::clamp((inChart.x() - m_view->chart()->plotArea().left()) / plotWidth(), 0.0, 1.0);
}

bool TimeNavigation::eventFilter(QObject *watched, QEvent *event)
{
    switch (event->type()) {
    case QEvent::KeyPress: {
        if (watched != m_view)
            break;
        const auto *key = static_cast<QKeyEvent *>(event);
        switch (key->key()) {
        case Qt::Key_Plus:
        case Qt::Key_Equal: zoom(0.5); return true;
        case Qt::Key_Minus: zoom(2.0); return true;
        case Qt::Key_Left: pan(-0.2); return true;
        case Qt::Key_Right: pan(0.2); return true;
        case Qt::Key_Home: setMode(Mode::FitAll); return true;
        case Qt::Key_End: setMode(Mode::FollowNow); return true;
        default: break;
        }
        break;
    }
    case QEvent::Wheel: {
        if (watched != m_view->viewport())
            break;
        const auto *wheel = static_cast<QWheelEvent *>(event);
        const int steps = wheel->angleDelta().y();
        if (steps == 0)
            break;
        zoom(std::pow(0.8, double(steps) / 120.0), plotFraction(wheel->position().x()));
        return true;
    }
    case QEvent::MouseButtonPress: {
        const auto *mouse = static_cast<QMouseEvent *>(event);
        if (watched == m_view->viewport() && mouse->button() == Qt::LeftButton) {
            m_dragX = mouse->position().x();
            m_view->setFocus(Qt::MouseFocusReason);
            return true;
        }
        break;
    }
    case QEvent::MouseMove: {
        const auto *mouse = static_cast<QMouseEvent *>(event);
        if (watched == m_view->viewport() && m_dragX && (mouse->buttons() & Qt::LeftButton)) {
            const double moved = mouse->position().x() - *m_dragX;
            m_dragX = mouse->position().x();
            pan(-moved / plotWidth());
            return true;
        }
        break;
    }
    case QEvent::MouseButtonRelease:
        if (watched == m_view->viewport() && m_dragX) {
            m_dragX.reset();
            return true;
        }
        break;
    default: break;
    }
    return QObject::eventFilter(watched, event);
}

void TimeNavigation::syncButtons()
{
    m_follow->setChecked(m_mode == Mode::FollowNow);
    m_fit->setChecked(m_mode == Mode::FitAll);
}

} // namespace relaydesk
