// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <initializer_list>
#include <utility>

class QCheckBox;
class QDateTimeEdit;
class QDialog;
class QFormLayout;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QWidget;

namespace relaydesk {

class FieldError;

// Adds the row `label` → `field` to a dialog's form, with the field's error
// line under it: the label is the field's buddy (keyboard mnemonic) and its
// text, without '&' and ':', the field's accessible name. Returns the error
// line (owned by the form's widget). GUI thread.
FieldError *addFormRow(QFormLayout *form, const QString &label, QWidget *field);

// Lays out a dialog that only asks for a choice: `note` (wrapped) above
// `form`, then Cancel and the accepting button `acceptText` (object name
// `acceptName`, the default button). Returns the accepting button.
QPushButton *layOutChoiceDialog(QDialog *dialog, const QString &note, QFormLayout *form, const QString &acceptText,
                                const char *acceptName);

// The rows "Message group ID" and "Deduplication ID" of the send and
// publish dialogs, enabled only when `fifo`; `entity` ("queue", "topic")
// words their placeholders.
struct FifoIdRows {
    QLineEdit *groupId = nullptr;
    FieldError *groupIdError = nullptr;
    QLineEdit *deduplicationId = nullptr;
    FieldError *deduplicationIdError = nullptr;
};
FifoIdRows addFifoIdRows(QFormLayout *form, bool fifo, const QString &entity);

// The send dialogs' "Schedule the enqueue at (UTC)" switch and its time
// (object names "schedule", "scheduledTime"), the time enabled only while the
// switch is on; set the time with setScheduleStart. Owned by `owner`.
struct ScheduleInputs {
    QCheckBox *schedule = nullptr;
    QDateTimeEdit *time = nullptr;
};
ScheduleInputs makeScheduleInputs(QWidget *owner);
// A minute after `now` (the broker clock's, or the wall clock's when null).
void setScheduleStart(QDateTimeEdit *time, const class Clock *clock);

// The row "Time to live" in seconds; 0 shows `defaultText` (no TTL of its own).
QSpinBox *addTimeToLiveRow(QFormLayout *form, const QString &defaultText, FieldError **error);

// The error line of the field a broker refusal names: the first of `lines`
// whose word the message contains (case-insensitive), else `otherwise`.
FieldError *lineForRefusal(const QString &message,
                           std::initializer_list<std::pair<const char *, FieldError *>> lines,
                           FieldError *otherwise);

} // namespace relaydesk
