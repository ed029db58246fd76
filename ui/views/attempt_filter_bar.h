// SPDX-License-Identifier: MIT
#pragma once

#include "models/attempt_log_model.h"

#include <QWidget>

class QComboBox;
class QLineEdit;
class QTimer;

namespace relaydesk {

class Clock;

// The Deliveries page's filter bar: message id (applied when typing pauses or
// on Enter), outcome, phase, status class (2xx/3xx/4xx/5xx/no response) and
// time range (any time, or the last 5 / 15 / 60 minutes or day of clock time,
// counted back from the moment the filter is applied). Every control has a
// label buddy. Emits filterChanged with the whole filter.
// Ownership: borrows the clock (outlives it). Thread: GUI.
class AttemptFilterBar final : public QWidget {
    Q_OBJECT
public:
    static constexpr int kTypingPauseMs = 300;

    explicit AttemptFilterBar(const Clock &clock, QWidget *parent = nullptr);

    AttemptFilter filter() const;
    // Sets the message id (e.g. from a row) and applies at once.
    void setMessageId(const QString &messageId);
    // Applies what the controls show now.
    void apply();

    QLineEdit *messageIdEdit() const { return m_messageId; }
    QComboBox *outcomeBox() const { return m_outcome; }
    QComboBox *phaseBox() const { return m_phase; }
    QComboBox *statusBox() const { return m_status; }
    QComboBox *timeBox() const { return m_time; }

signals:
    void filterChanged(const relaydesk::AttemptFilter &filter);

private:
    const Clock &m_clock;
    QLineEdit *m_messageId = nullptr;
    QComboBox *m_outcome = nullptr;
    QComboBox *m_phase = nullptr;
    QComboBox *m_status = nullptr;
    QComboBox *m_time = nullptr;
    QTimer *m_typing = nullptr;
    AttemptFilter m_last;
};

} // namespace relaydesk
