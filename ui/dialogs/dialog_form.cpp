// SPDX-License-Identifier: MIT
#include "dialogs/dialog_form.h"

#include "widgets/field_error.h"

#include "broker/clock.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QDateTimeEdit>
#include <QTimeZone>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <limits>

namespace relaydesk {

ScheduleInputs makeScheduleInputs(QWidget *owner)
{
    ScheduleInputs inputs;
    inputs.schedule = new QCheckBox(QCoreApplication::translate("relaydesk::SendMessageDialog",
                                                                "&Schedule the enqueue at (UTC)"),
                                    owner);
    inputs.schedule->setObjectName(QStringLiteral("schedule"));
    inputs.time = new QDateTimeEdit(owner);
    inputs.time->setObjectName(QStringLiteral("scheduledTime"));
    inputs.time->setTimeSpec(Qt::UTC);
    inputs.time->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    inputs.time->setCalendarPopup(true);
    inputs.time->setEnabled(false);
    QObject::connect(inputs.schedule, &QCheckBox::toggled, inputs.time, &QWidget::setEnabled);
    return inputs;
}

void setScheduleStart(QDateTimeEdit *time, const Clock *clock)
{
    const qint64 now = clock ? toEpochMilliseconds(clock->now()) : QDateTime::currentMSecsSinceEpoch();
    time->setDateTime(QDateTime::fromMSecsSinceEpoch(now + 60'000, QTimeZone::utc()));
}

FieldError *addFormRow(QFormLayout *form, const QString &label, QWidget *field)
{
    QWidget *owner = form->parentWidget();
    QString name = label;
    name.remove(QLatin1Char('&'));
    if (name.endsWith(QLatin1Char(':')))
        name.chop(1);
    field->setAccessibleName(name);
    auto *caption = new QLabel(label, owner);
    caption->setBuddy(field);
    auto *cell = new QWidget(owner);
    auto *column = new QVBoxLayout(cell);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);
    field->setParent(cell);
    column->addWidget(field);
    auto *error = new FieldError(field, cell);
    column->addWidget(error);
    form->addRow(caption, cell);
    return error;
}

QPushButton *layOutChoiceDialog(QDialog *dialog, const QString &note, QFormLayout *form, const QString &acceptText,
                                const char *acceptName)
{
    auto *text = new QLabel(note, dialog);
    text->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, dialog);
    QPushButton *accept = buttons->addButton(acceptText, QDialogButtonBox::AcceptRole);
    accept->setObjectName(QLatin1String(acceptName));
    accept->setDefault(true);
    QObject::connect(buttons, &QDialogButtonBox::accepted, dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(dialog);
    dialog->setMinimumWidth(dialog->fontMetrics().averageCharWidth() * 60);   // the note reads in a few lines
    layout->addWidget(text);
    layout->addLayout(form);
    layout->addWidget(buttons);
    return accept;
}

FifoIdRows addFifoIdRows(QFormLayout *form, bool fifo, const QString &entity)
{
    const auto tr = [](const char *text) { return QCoreApplication::translate("relaydesk::FifoIdRows", text); };
    FifoIdRows rows;
    rows.groupId = new QLineEdit;
    rows.groupId->setObjectName(QStringLiteral("groupId"));
    rows.groupId->setPlaceholderText(fifo ? tr("required on a FIFO %1").arg(entity) : tr("FIFO %1s only").arg(entity));
    rows.groupId->setEnabled(fifo);
    rows.groupIdError = addFormRow(form, tr("Message &group ID:"), rows.groupId);
    rows.deduplicationId = new QLineEdit;
    rows.deduplicationId->setObjectName(QStringLiteral("deduplicationId"));
    rows.deduplicationId->setPlaceholderText(fifo ? tr("empty: content-based, if the %1 has it").arg(entity)
                                                  : tr("FIFO %1s only").arg(entity));
    rows.deduplicationId->setEnabled(fifo);
    rows.deduplicationIdError = addFormRow(form, tr("&Deduplication ID:"), rows.deduplicationId);
    return rows;
}

QSpinBox *addTimeToLiveRow(QFormLayout *form, const QString &defaultText, FieldError **error)
{
    auto *seconds = new QSpinBox;
    seconds->setObjectName(QStringLiteral("timeToLive"));
    seconds->setRange(0, std::numeric_limits<int>::max());
    seconds->setSpecialValueText(defaultText);
    seconds->setSuffix(QStringLiteral(" s"));
    seconds->setToolTip(QCoreApplication::translate("relaydesk::FifoIdRows",
                                                    "Seconds until the message expires (the entity's default TTL caps it)."));
    *error = addFormRow(form, QCoreApplication::translate("relaydesk::FifoIdRows", "Time to &live:"), seconds);
    return seconds;
}

FieldError *lineForRefusal(const QString &message,
                           std::initializer_list<std::pair<const char *, FieldError *>> lines,
                           FieldError *otherwise)
{
    for (const auto &[word, line] : lines)
        if (message.contains(QLatin1String(word), Qt::CaseInsensitive))
            return line;
    return otherwise;
}

} // namespace relaydesk
