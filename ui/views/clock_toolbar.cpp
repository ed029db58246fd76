// SPDX-License-Identifier: MIT
#include "views/clock_toolbar.h"

#include "broker/broker_error.h"
#include "engine/broker_engine.h"
#include "engine/entity_overview_reader.h"
#include "views/next_event_text.h"

#include <QAction>
#include <QActionGroup>
#include <QComboBox>
#include <QDateTime>
#include <QEvent>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QTimer>

#include <algorithm>
#include <optional>
#include <utility>

namespace relaydesk {

namespace {

constexpr double kFactors[] = {1.0, 10.0, 60.0, 600.0};
const char *const kFactorKey = "clock/warpFactor";

QString clockText(ClockTime time)
{
    return QDateTime::fromMSecsSinceEpoch(toEpochMilliseconds(time), Qt::UTC)
        .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"));
}

} // namespace

ClockToolbar::ClockToolbar(QWidget *parent)
    : QToolBar(tr("Clock"), parent)
{
    setObjectName(QStringLiteral("clockToolbar"));
    auto *caption = new QLabel(tr("Clock:"), this);
    addWidget(caption);
    // One choice of three: in the exclusive group before the toolbar makes
    // their buttons, so each button is a radio button from the start
    // (widgets/accessible_choice_button.h).
    m_modes = new QActionGroup(this);
    m_real = m_modes->addAction(tr("Real"));
    m_real->setToolTip(tr("Real time: the broker's clock follows the wall clock"));
    m_warp = m_modes->addAction(tr("Warp"));
    m_warp->setToolTip(tr("Time warp: the clock runs faster by the factor beside it"));
    m_virtual = m_modes->addAction(tr("Virtual"));
    m_virtual->setToolTip(tr("Virtual time: the clock stands still until you step it"));
    for (QAction *action : {m_real, m_warp, m_virtual}) {
        action->setCheckable(true);
        addAction(action);
    }
    m_real->setObjectName(QStringLiteral("clockRealAction"));
    m_warp->setObjectName(QStringLiteral("clockWarpAction"));
    m_virtual->setObjectName(QStringLiteral("clockVirtualAction"));
    connect(m_real, &QAction::triggered, this, [this] { switchTo(0, 1.0); });
    connect(m_warp, &QAction::triggered, this, [this] { switchTo(1, chosenFactor()); });
    connect(m_virtual, &QAction::triggered, this, [this] { switchTo(2, 1.0); });

    m_factor = new QComboBox(this);
    m_factor->setObjectName(QStringLiteral("warpFactor"));
    m_factor->setAccessibleName(tr("Warp factor"));
    m_factor->setToolTip(tr("Warp factor"));
    for (double factor : kFactors)
        m_factor->addItem(QStringLiteral("%1×").arg(factor), factor);
    // The factor last chosen comes back (default 60×).
    const double savedFactor = QSettings(QStringLiteral("Relaydesk"), QStringLiteral("Relaydesk"))
                                   .value(QLatin1String(kFactorKey), 60.0)
                                   .toDouble();
    const int savedIndex = m_factor->findData(savedFactor);
    m_factor->setCurrentIndex(savedIndex >= 0 ? savedIndex : 2);
    addWidget(m_factor);
    connect(m_factor, &QComboBox::activated, this, [this] {
        QSettings(QStringLiteral("Relaydesk"), QStringLiteral("Relaydesk")).setValue(QLatin1String(kFactorKey), chosenFactor());
        switchTo(1, chosenFactor());
    });

    addSeparator();
    m_pause = addAction(tr("Pause"));
    m_pause->setObjectName(QStringLiteral("clockPauseAction"));
    m_pause->setCheckable(true);
    m_pause->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
    m_pause->setToolTip(tr("Stop the clock (Ctrl+.); again to let it run as before"));
    connect(m_pause, &QAction::triggered, this, [this](bool paused) {
        if (!m_engine)
            return;
        if (paused) {
            m_modeBeforePause = static_cast<int>(m_engine->clock().mode());
            m_scaleBeforePause = m_engine->clock().scale();
            switchTo(2, 1.0);
        } else {
            switchTo(m_modeBeforePause, m_scaleBeforePause);
        }
    });
    m_stepSecond = addAction(tr("+1 s"));
    m_stepSecond->setObjectName(QStringLiteral("clockStepSecondAction"));
    m_stepSecond->setToolTip(tr("Move the virtual clock one second on (Ctrl+])"));
    m_stepSecond->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_BracketRight));
    connect(m_stepSecond, &QAction::triggered, this, [this] { step(std::chrono::seconds(1)); });
    m_stepMinute = addAction(tr("+1 min"));
    m_stepMinute->setObjectName(QStringLiteral("clockStepMinuteAction"));
    m_stepMinute->setToolTip(tr("Move the virtual clock one minute on (Ctrl+Shift+])"));
    m_stepMinute->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_BracketRight));
    connect(m_stepMinute, &QAction::triggered, this, [this] { step(std::chrono::minutes(1)); });
    m_stepNext = addAction(tr("Next event"));
    m_stepNext->setObjectName(QStringLiteral("clockStepNextAction"));
    m_stepNext->setToolTip(tr("Move the virtual clock to the next due event: a delivery, a retry, the end of a "
                              "delay, lock or schedule (Ctrl+Alt+])"));
    m_stepNext->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_BracketRight));
    connect(m_stepNext, &QAction::triggered, this, &ClockToolbar::stepToNextEvent);

    m_time = new QLabel(this);
    m_time->setObjectName(QStringLiteral("clockTime"));
    m_time->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_time->setMargin(4);
    QFont mono = m_time->font();
    mono.setStyleHint(QFont::Monospace);
    mono.setFamily(QStringLiteral("monospace"));
    m_time->setFont(mono);
    m_next = new QLabel(this);
    m_next->setObjectName(QStringLiteral("nextEventLabel"));
    m_next->setTextFormat(Qt::PlainText);
    m_next->setMargin(4);
    // It gives way first in a narrow status bar (the broker time beside it
    // stays whole): elided in the middle to the room it has, at most 56
    // characters'; the tooltip and accessible name have it whole.
    m_next->setMaximumWidth(m_next->fontMetrics().averageCharWidth() * 56);
    m_next->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_next->installEventFilter(this);

    m_tick = new QTimer(this);
    m_tick->setInterval(250);
    connect(m_tick, &QTimer::timeout, this, &ClockToolbar::showClock);
    setEngine(nullptr);
}

void ClockToolbar::setEngine(BrokerEngine *engine, std::function<std::optional<MessageDue>()> nextMessageDue)
{
    m_engine = engine;
    m_nextMessageDue = std::move(nextMessageDue);
    m_busy = false;
    m_reading = false;
    m_nextEvent.reset();
    if (engine) {
        const ClockMode mode = engine->clock().mode();
        if (mode == ClockMode::Scaled) {
            const double scale = engine->clock().scale();
            int best = 0;
            for (int i = 0; i < m_factor->count(); ++i)
                if (qAbs(m_factor->itemData(i).toDouble() - scale) < qAbs(m_factor->itemData(best).toDouble() - scale))
                    best = i;
            m_factor->setCurrentIndex(best);
        }
        m_pause->setChecked(false);
        m_modeBeforePause = mode == ClockMode::Virtual ? 0 : static_cast<int>(mode);
        m_scaleBeforePause = engine->clock().scale();
        m_tick->start();
    } else {
        m_tick->stop();
    }
    showClock();
}

double ClockToolbar::chosenFactor() const { return m_factor->currentData().toDouble(); }

// A switch asked for while another is on its way is not lost: the last one
// asked runs when the current one has answered.
void ClockToolbar::switchTo(int mode, double scale)
{
    if (!m_engine)
        return;
    if (m_busy) {
        m_nextSwitch = std::make_pair(mode, scale);
        return;
    }
    m_busy = true;
    m_engine->setClockMode(static_cast<ClockMode>(mode), scale, this, [this](Status status) {
        m_busy = false;
        if (!status)
            emit statusMessage(tr("Clock: %1").arg(QString::fromStdString(status.error().message)));
        if (const auto next = std::exchange(m_nextSwitch, std::nullopt)) {
            switchTo(next->first, next->second);
            return;
        }
        showClock();
        emit clockChanged();
    });
}

void ClockToolbar::step(std::optional<ClockDuration> by)
{
    if (!m_engine || m_busy || !by)
        return;
    m_busy = true;
    m_engine->advanceClock(*by, this, [this](Result<ClockTime> time) { onStepped(std::move(time)); });
}

void ClockToolbar::onStepped(Result<ClockTime> time)
{
    m_busy = false;
    if (!time)
        emit statusMessage(tr("Clock: %1").arg(QString::fromStdString(time.error().message)));
    else
        emit statusMessage(tr("Clock now %1").arg(clockText(*time)));
    m_nextEvent.reset();
    showClock();
    readNextEvent();
    emit clockChanged();
}

// Reads what is next as of the press (not the label's last read), then moves
// to exactly that time — after asking, when the jump is long or expires
// messages. A due time that came earlier meanwhile is not skipped: the
// engine's advance runs everything due on the way.
void ClockToolbar::stepToNextEvent()
{
    if (!m_engine || m_busy)
        return;
    m_busy = true;
    previewNextClockEvent(*m_engine, m_nextMessageDue ? m_nextMessageDue() : std::nullopt, this,
                          [this](Result<NextClockEvent> next) {
                              m_busy = false;
                              if (!next) {
                                  emit statusMessage(tr("Clock: %1").arg(QString::fromStdString(next.error().message)));
                                  return;
                              }
                              m_nextEvent = *next;
                              showNextEvent();
                              if (next_event_text::needsAsking(*next))
                                  confirmNextEvent(*next);
                              else
                                  advanceTo(next->at);
                          });
}

void ClockToolbar::confirmNextEvent(const NextClockEvent &next)
{
    auto *box = new QMessageBox(QMessageBox::Question, tr("Next event"), next_event_text::question(next),
                                QMessageBox::NoButton, this);
    box->setObjectName(QStringLiteral("nextEventConfirmation"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *move = box->addButton(tr("Move the clock"), QMessageBox::AcceptRole);
    move->setObjectName(QStringLiteral("confirmNextEvent"));
    box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(QMessageBox::Cancel);
    const ClockTime to = next.at;
    connect(box, &QMessageBox::accepted, this, [this, to] { advanceTo(to); });
    box->open();
}

void ClockToolbar::advanceTo(ClockTime to)
{
    if (!m_engine || m_busy)
        return;
    m_busy = true;
    m_engine->advanceClockTo(to, this, [this](Result<ClockTime> time) { onStepped(std::move(time)); });
}

void ClockToolbar::readNextEvent()
{
    if (!m_engine || m_reading || m_engine->clock().mode() != ClockMode::Virtual)
        return;
    m_reading = true;
    previewNextClockEvent(*m_engine, m_nextMessageDue ? m_nextMessageDue() : std::nullopt, this,
                          [this](Result<NextClockEvent> next) {
                              m_reading = false;
                              if (next)
                                  m_nextEvent = *next;
                              showNextEvent();
                          });
}

void ClockToolbar::showNextEvent()
{
    const bool shown = m_engine && m_engine->clock().mode() == ClockMode::Virtual && m_nextEvent;
    const QString text = shown ? next_event_text::summary(*m_nextEvent) : QString();
    m_nextText = text;
    fitNextEvent();
    m_next->setToolTip(text);
    m_next->setAccessibleName(text);
    m_next->setVisible(shown);
    const QString base = tr("Move the virtual clock to the next due event: a delivery, a retry, the end of a "
                            "delay, lock or schedule (Ctrl+Alt+]); asks first before a jump of more than an hour "
                            "or one that expires messages");
    m_stepNext->setToolTip(shown ? base + QStringLiteral("\n") + text : base);
}

void ClockToolbar::fitNextEvent()
{
    const int room = std::min(m_next->width(), m_next->maximumWidth()) - 2 * m_next->margin();
    m_next->setText(m_next->fontMetrics().elidedText(m_nextText, Qt::ElideMiddle, std::max(room, 0)));
}

bool ClockToolbar::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_next && event->type() == QEvent::Resize)
        fitNextEvent();
    return QToolBar::eventFilter(watched, event);
}

void ClockToolbar::showClock()
{
    const bool running = m_engine != nullptr;
    for (QAction *action : {m_real, m_warp, m_virtual, m_pause})
        action->setEnabled(running);
    m_factor->setEnabled(running);
    if (!running) {
        for (QAction *action : {m_stepSecond, m_stepMinute, m_stepNext})
            action->setEnabled(false);
        m_time->setText(tr("no broker"));
        m_time->setAccessibleName(tr("Broker time: no broker"));
        showNextEvent();
        return;
    }
    const ClockMode mode = m_engine->clock().mode();
    const bool isVirtual = mode == ClockMode::Virtual;
    m_real->setChecked(mode == ClockMode::Real);
    m_warp->setChecked(mode == ClockMode::Scaled);
    m_virtual->setChecked(isVirtual);
    m_pause->setChecked(isVirtual && m_pause->isChecked());
    for (QAction *action : {m_stepSecond, m_stepMinute, m_stepNext})
        action->setEnabled(isVirtual && !m_busy);
    QString text = clockText(m_engine->clock().now());
    if (mode == ClockMode::Scaled)
        text += QStringLiteral("  (%1×)").arg(m_engine->clock().scale());
    m_time->setText(text);
    m_time->setAccessibleName(tr("Broker time: %1").arg(text));
    m_time->setToolTip(tr("The broker's clock"));
    if (!isVirtual)
        m_nextEvent.reset();
    else if (m_ticks++ % 4 == 0 || !m_nextEvent)
        readNextEvent(); // once a second: a publish or a send may bring an earlier event
    showNextEvent();
}

} // namespace relaydesk
