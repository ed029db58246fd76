// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "engine/entity_overview_reader.h"

#include <QToolBar>

#include <functional>
#include <optional>
#include <utility>

class QAction;
class QActionGroup;
class QComboBox;
class QLabel;
class QTimer;

namespace relaydesk {

class BrokerEngine;

// The clock toolbar (docs/behaviour.md §7, docs/window.md "How the window should feel"): the mode
// (Real / Warp / Virtual), the warp factor 1× 10× 60× 600×, Pause (the
// clock stands still: virtual; again: back to the mode before), and in
// virtual mode the steps +1 s, +1 min and "to the next due event". Two
// labels for the window's status bar (they stay visible at any width): the
// broker's current time, updated four times a second from the clock
// (thread-safe reads), and in virtual mode what Next event would do — what
// falls due and when, read through the engine each second. Next event asks
// first (a dialog, "nextEventConfirmation") before a jump longer than an
// hour or one that expires messages, naming how many of which queues.
// Every change goes through the engine asynchronously; the controls show
// the clock's mode once it replied.
//
// Ownership: borrows the engine (null: no broker, all disabled).
// Thread: GUI.
class ClockToolbar final : public QToolBar {
    Q_OBJECT
public:
    explicit ClockToolbar(QWidget *parent = nullptr);

    // `nextMessageDue` says when and where the next message becomes
    // available (for "next"); may be empty.
    void setEngine(BrokerEngine *engine, std::function<std::optional<MessageDue>()> nextMessageDue = {});
    // Not in the toolbar: the window puts them in its status bar.
    QLabel *timeLabel() const { return m_time; }
    QLabel *nextEventLabel() const { return m_next; }
    QAction *realAction() const { return m_real; }
    QAction *warpAction() const { return m_warp; }
    QAction *virtualAction() const { return m_virtual; }
    QAction *pauseAction() const { return m_pause; }
    QAction *stepSecondAction() const { return m_stepSecond; }
    QAction *stepMinuteAction() const { return m_stepMinute; }
    QAction *stepNextAction() const { return m_stepNext; }
    QComboBox *warpFactor() const { return m_factor; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override; // the next event's label, resized

signals:
    void statusMessage(const QString &message);
    // After a step or a mode change took effect.
    void clockChanged();

private:
    void switchTo(int mode, double scale);
    void step(std::optional<ClockDuration> by);
    void stepToNextEvent();
    void confirmNextEvent(const NextClockEvent &next);
    void advanceTo(ClockTime to);
    void onStepped(Result<ClockTime> time);
    void readNextEvent();
    void showNextEvent();
    void fitNextEvent();
    void showClock();
    double chosenFactor() const;

    BrokerEngine *m_engine = nullptr;
    std::function<std::optional<MessageDue>()> m_nextMessageDue;
    QActionGroup *m_modes = nullptr;
    QAction *m_real = nullptr;
    QAction *m_warp = nullptr;
    QAction *m_virtual = nullptr;
    QAction *m_pause = nullptr;
    QAction *m_stepSecond = nullptr;
    QAction *m_stepMinute = nullptr;
    QAction *m_stepNext = nullptr;
    QComboBox *m_factor = nullptr;
    QLabel *m_time = nullptr;
    QLabel *m_next = nullptr;
    QString m_nextText; // whole; m_next shows it elided to its width
    QTimer *m_tick = nullptr;
    int m_ticks = 0;
    bool m_reading = false; // a read of the next event is on its way
    std::optional<NextClockEvent> m_nextEvent; // the last read, in virtual mode
    int m_modeBeforePause = 0;
    double m_scaleBeforePause = 1.0;
    bool m_busy = false;
    std::optional<std::pair<int, double>> m_nextSwitch; // asked for while busy
};

} // namespace relaydesk
