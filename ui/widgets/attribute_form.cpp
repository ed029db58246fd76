// SPDX-License-Identifier: MIT
#include "widgets/attribute_form.h"

#include "widgets/flow_layout.h"

#include "widgets/accessible_names.h"
#include "widgets/attribute_range_check.h"
#include "widgets/field_error.h"

#include "policy/policy_report.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFontDatabase>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QVBoxLayout>

namespace relaydesk {
namespace {

using In = AttributeInput;

// "s (12 h)" beside a seconds input: the value in words when it is large.
QString unitWithWords(const QString &unit, const QString &text)
{
    bool ok = false;
    const qint64 value = text.trimmed().toLongLong(&ok);
    if (unit != QLatin1String("s") || !ok || value < 60)
        return unit;
    return QStringLiteral("%1  (%2)").arg(unit, QString::fromStdString(durationText(value)));
}

QString helpText(const AttributeDescription &d)
{
    QStringList parts;
    if (const QString range = d.rangeText(); !range.isEmpty())
        parts << range;
    if (d.input == In::Boolean)
        parts << (d.defaultValue == QLatin1String("true") ? AttributeForm::tr("default on") : AttributeForm::tr("default off"));
    else if (d.input == In::Integer)
        parts << AttributeForm::tr("default %1").arg(QLocale().toString(d.defaultValue.toLongLong()));
    else if (!d.defaultValue.isEmpty() && d.input != In::ReadOnly)
        parts << AttributeForm::tr("default %1").arg(d.defaultValue);
    parts << d.explanation;
    return parts.join(QStringLiteral(" · "));
}

} // namespace

AttributeForm::AttributeForm(const std::vector<AttributeDescription> &rows, Mode mode, QWidget *parent)
    : QWidget(parent)
    , m_mode(mode)
{
    setObjectName(QStringLiteral("attributeForm"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    QMap<QString, QGroupBox *> sections;
    m_rows.reserve(rows.size());
    for (const AttributeDescription &description : rows) {
        QGroupBox *&section = sections[description.group];
        if (!section) {
            section = new QGroupBox(description.group, this);
            new QVBoxLayout(section);
            layout->addWidget(section);
        }
        m_rows.push_back(Row{description, nullptr, nullptr, nullptr, nullptr, nullptr});
        buildRow(m_rows.back(), section);
    }
    layout->addStretch(1);
    int labelWidth = 0;
    for (const Row &row : m_rows)
        labelWidth = std::max(labelWidth, row.label->sizeHint().width());
    for (Row &row : m_rows)
        row.label->setMinimumWidth(labelWidth);
    setFifo(false);
}

AttributeForm::~AttributeForm() = default;

void AttributeForm::buildRow(Row &row, QWidget *section)
{
    const AttributeDescription &d = row.description;
    row.rowWidget = new QWidget(section);
    row.rowWidget->setObjectName(d.name + QStringLiteral("Row"));
    auto *grid = new QGridLayout(row.rowWidget);
    grid->setContentsMargins(0, 2, 0, 2);
    grid->setVerticalSpacing(1);
    row.label = new QLabel(d.label, row.rowWidget);
    row.input = buildInput(row, row.rowWidget);
    row.input->setObjectName(d.name);
    row.input->setAccessibleName(accessibleLabelText(d.label));
    row.input->setAccessibleDescription(d.explanation);
    row.label->setBuddy(row.input);
    auto *help = new QLabel(helpText(d), row.rowWidget);
    help->setObjectName(d.name + QStringLiteral("Help"));
    help->setWordWrap(true);
    help->setForegroundRole(QPalette::PlaceholderText);
    QFont small = help->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    help->setFont(small);
    row.error = new FieldError(row.input, d.name, row.rowWidget);

    auto *line = new QHBoxLayout;
    line->addWidget(row.input, d.input == In::Json || d.input == In::Text || d.input == In::ReadOnly ? 1 : 0);
    if (d.input == In::Integer || d.input == In::OptionalSeconds) {
        auto *unit = new QLabel(d.unit, row.rowWidget);
        unit->setContentsMargins(4, 0, 0, 0);
        auto *edit = static_cast<QLineEdit *>(row.input);
        connect(edit, &QLineEdit::textChanged, unit,
                [unit, d](const QString &text) { unit->setText(unitWithWords(d.unit, text)); });
        line->addWidget(unit);
    }
    FlowLayout *flow = nullptr; // the count goes below the queue rather than widen the page
    if (row.extra) {
        auto *countLabel = new QLabel(tr("Max receives"), row.rowWidget);
        countLabel->setBuddy(row.extra);
        row.extra->setAccessibleName(tr("Max receives"));
        flow = new FlowLayout(nullptr, 12);
        auto *queue = new QWidget(row.rowWidget);
        auto *queueLine = new QHBoxLayout(queue);
        queueLine->setContentsMargins(0, 0, 0, 0);
        while (QLayoutItem *item = line->takeAt(0)) {
            if (QWidget *widget = item->widget()) {
                queueLine->addWidget(widget); // now a child of `queue`
                delete item;
            } else {
                queueLine->addItem(item);
            }
        }
        flow->addWidget(queue);
        flow->addWidget(labelledPair(countLabel, row.extra, row.rowWidget));
    }
    if (d.input != In::Json && d.input != In::Text && d.input != In::ReadOnly && !flow)
        line->addStretch(1);
    grid->addWidget(row.label, 0, 0, Qt::AlignLeft | Qt::AlignTop);
    if (flow) {
        delete line;
        grid->addLayout(flow, 0, 1);
    } else {
        grid->addLayout(line, 0, 1);
    }
    grid->addWidget(help, 1, 1);
    grid->addWidget(row.error, 2, 1);
    grid->setColumnStretch(1, 1);
    section->layout()->addWidget(row.rowWidget);
}

QWidget *AttributeForm::buildInput(Row &row, QWidget *parent)
{
    const AttributeDescription &d = row.description;
    switch (d.input) {
    case In::Integer:
    case In::OptionalSeconds: {
        auto *edit = new QLineEdit(parent);
        edit->setMaximumWidth(fontMetrics().horizontalAdvance(QLatin1Char('9')) * 16);
        if (d.input == In::OptionalSeconds)
            edit->setPlaceholderText(tr("none"));
        connect(edit, &QLineEdit::textEdited, this, &AttributeForm::onEdited);
        return edit;
    }
    case In::Boolean: {
        auto *box = new QCheckBox(parent);
        connect(box, &QCheckBox::toggled, this, &AttributeForm::onEdited);
        if (d.fixedAtCreation && m_mode == Mode::Edit)
            box->setEnabled(false);
        return box;
    }
    case In::Choice: {
        auto *combo = new QComboBox(parent);
        combo->addItems(d.choices);
        connect(combo, &QComboBox::activated, this, &AttributeForm::onEdited);
        return combo;
    }
    case In::Text: {
        auto *edit = new QLineEdit(parent);
        connect(edit, &QLineEdit::textEdited, this, &AttributeForm::onEdited);
        return edit;
    }
    case In::Json: {
        auto *edit = new QPlainTextEdit(parent);
        edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        edit->setTabChangesFocus(true);
        edit->setPlaceholderText(tr("none"));
        edit->setFixedHeight(edit->fontMetrics().lineSpacing() * 3 + 12);
        connect(edit, &QPlainTextEdit::textChanged, this, &AttributeForm::onEdited);
        return edit;
    }
    case In::QueueRedrive:
    case In::DeadLetterQueue: {
        auto *combo = new QComboBox(parent);
        // About 18 characters, not the longest queue name (the list shows names whole).
        combo->setMinimumContentsLength(18);
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->addItem(tr("None"), QString());
        connect(combo, &QComboBox::activated, this, &AttributeForm::onEdited);
        if (d.input == In::QueueRedrive) {
            auto *count = new QLineEdit(QStringLiteral("10"), parent);
            count->setObjectName(d.name + QStringLiteral("MaxReceiveCount"));
            count->setMaximumWidth(fontMetrics().horizontalAdvance(QLatin1Char('9')) * 8);
            connect(count, &QLineEdit::textEdited, this, &AttributeForm::onEdited);
            connect(combo, &QComboBox::currentIndexChanged, count,
                    [combo, count] { count->setEnabled(!combo->currentData().toString().isEmpty()); });
            count->setEnabled(false);
            row.extra = count;
        }
        return combo;
    }
    case In::ReadOnly:
        break;
    }
    auto *label = new QLabel(parent);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    label->setFocusPolicy(Qt::StrongFocus);
    label->setWordWrap(true);
    return label;
}

void AttributeForm::onEdited()
{
    if (m_updating)
        return;
    for (Row &row : m_rows) {
        if (row.description.fixedAtCreation && m_mode == Mode::Create)
            setFifo(static_cast<QCheckBox *>(row.input)->isChecked());
    }
    emit edited();
}

bool AttributeForm::writable(const Row &row) const
{
    const AttributeDescription &d = row.description;
    if (d.input == In::ReadOnly || (d.fixedAtCreation && m_mode == Mode::Edit))
        return false;
    return !d.fifoOnly || m_fifo;
}

QString AttributeForm::valueOf(const Row &row) const
{
    switch (row.description.input) {
    case In::Integer:
    case In::OptionalSeconds:
    case In::Text:
        return static_cast<QLineEdit *>(row.input)->text().trimmed();
    case In::Boolean:
        return static_cast<QCheckBox *>(row.input)->isChecked() ? QStringLiteral("true") : QStringLiteral("false");
    case In::Choice:
        return static_cast<QComboBox *>(row.input)->currentText();
    case In::Json:
        return static_cast<QPlainTextEdit *>(row.input)->toPlainText().trimmed();
    case In::QueueRedrive:
    case In::DeadLetterQueue: {
        const QString arn = static_cast<QComboBox *>(row.input)->currentData().toString();
        if (arn.isEmpty())
            return {};
        QJsonObject policy{{QStringLiteral("deadLetterTargetArn"), arn}};
        if (row.extra) {
            const QString count = static_cast<QLineEdit *>(row.extra)->text().trimmed();
            bool ok = false;
            const int number = count.toInt(&ok);
            policy.insert(QStringLiteral("maxReceiveCount"), ok ? QJsonValue(number) : QJsonValue(count));
        }
        return QString::fromUtf8(QJsonDocument(policy).toJson(QJsonDocument::Compact));
    }
    case In::ReadOnly:
        break;
    }
    return static_cast<QLabel *>(row.input)->text();
}

void AttributeForm::setValueOf(Row &row, const QString &value)
{
    switch (row.description.input) {
    case In::Integer:
    case In::OptionalSeconds:
    case In::Text: {
        auto *edit = static_cast<QLineEdit *>(row.input);
        edit->setText(value);
        emit edit->textChanged(value);   // the unit's words (setText emits only when the text differs)
        return;
    }
    case In::Boolean:
        static_cast<QCheckBox *>(row.input)->setChecked(value.compare(QLatin1String("true"), Qt::CaseInsensitive) == 0);
        return;
    case In::Choice: {
        auto *combo = static_cast<QComboBox *>(row.input);
        if (combo->findText(value) < 0)
            combo->addItem(value);
        combo->setCurrentIndex(combo->findText(value));
        return;
    }
    case In::Json:
        static_cast<QPlainTextEdit *>(row.input)->setPlainText(value);
        return;
    case In::QueueRedrive:
    case In::DeadLetterQueue: {
        const QJsonObject policy = QJsonDocument::fromJson(value.toUtf8()).object();
        setDeadLetterChoice(row, policy.value(QStringLiteral("deadLetterTargetArn")).toString());
        if (row.extra) {
            const QJsonValue count = policy.value(QStringLiteral("maxReceiveCount"));
            static_cast<QLineEdit *>(row.extra)
                ->setText(count.isDouble() ? QString::number(count.toInteger())
                                           : count.isString() ? count.toString() : QStringLiteral("10"));
        }
        return;
    }
    case In::ReadOnly:
        break;
    }
    auto *label = static_cast<QLabel *>(row.input);
    label->setText(value);
    // Selectable from the keyboard when there is something to select: no empty Tab stop.
    label->setFocusPolicy(value.isEmpty() ? Qt::NoFocus : Qt::StrongFocus);
}

void AttributeForm::setDeadLetterChoice(Row &row, const QString &arn)
{
    auto *combo = static_cast<QComboBox *>(row.input);
    int index = combo->findData(arn);
    if (index < 0) {
        combo->addItem(arn, arn);   // a queue not (yet) listed: show its ARN
        index = combo->count() - 1;
    }
    combo->setCurrentIndex(index);
}

void AttributeForm::setValues(const AttributeValues &values)
{
    m_updating = true;
    for (Row &row : m_rows) {
        const AttributeDescription &d = row.description;
        setValueOf(row, values.value(d.name, d.defaultValue));
        if (d.fixedAtCreation)
            setFifo(valueOf(row) == QLatin1String("true"));
    }
    m_updating = false;
    m_baseline = this->values();
    clearErrors();
}

AttributeValues AttributeForm::values() const
{
    AttributeValues out;
    for (const Row &row : m_rows) {
        if (writable(row))
            out.insert(row.description.name, valueOf(row));
    }
    return out;
}

AttributeValues AttributeForm::changes() const
{
    AttributeValues out;
    const AttributeValues now = values();
    for (auto it = now.cbegin(); it != now.cend(); ++it) {
        if (m_baseline.value(it.key()) != it.value() || !m_baseline.contains(it.key()))
            out.insert(it.key(), it.value());
    }
    return out;
}

AttributeValues AttributeForm::nonDefaultValues() const
{
    AttributeValues out;
    for (const Row &row : m_rows) {
        if (writable(row) && valueOf(row) != row.description.defaultValue)
            out.insert(row.description.name, valueOf(row));
    }
    return out;
}

void AttributeForm::setFifo(bool fifo)
{
    m_fifo = fifo;
    for (Row &row : m_rows) {
        if (row.description.fifoOnly)
            row.rowWidget->setVisible(fifo);
    }
}

void AttributeForm::setQueueChoices(const QueueChoices &queues)
{
    m_queues = queues;
    m_updating = true;
    for (Row &row : m_rows) {
        if (row.description.input != In::QueueRedrive && row.description.input != In::DeadLetterQueue)
            continue;
        auto *combo = static_cast<QComboBox *>(row.input);
        const QString selected = combo->currentData().toString();
        combo->clear();
        combo->addItem(tr("None"), QString());
        for (const auto &[name, arn] : queues)
            combo->addItem(name, arn);
        setDeadLetterChoice(row, selected);
    }
    m_updating = false;
}

bool AttributeForm::showBrokerError(const QString &message, const QStringList &preferred)
{
    QString name = attributeNamedIn(message, preferred);
    if (name.isEmpty()) {
        QStringList all;
        for (const Row &row : m_rows)
            all << row.description.name;
        name = attributeNamedIn(message, all);
    }
    if (name.isEmpty())
        return false;
    showError(name, message);
    return true;
}

void AttributeForm::showError(const QString &name, const QString &message)
{
    for (Row &row : m_rows) {
        if (row.description.name == name) {
            row.error->setMessage(message);
            if (message.isEmpty() || !row.input->isVisible())
                continue;
            row.input->setFocus(Qt::OtherFocusReason);
            for (QWidget *up = parentWidget(); up; up = up->parentWidget()) {
                if (auto *scroll = qobject_cast<QScrollArea *>(up)) {
                    scroll->ensureWidgetVisible(row.error);
                    scroll->ensureWidgetVisible(row.input);
                    break;
                }
            }
        }
    }
}

int AttributeForm::checkRanges()
{
    int refused = 0;
    const Row *first = nullptr;
    QString firstRefusal;
    for (Row &row : m_rows) {
        if (!writable(row))
            continue;
        const bool redrive = row.description.input == In::QueueRedrive;
        if (redrive && (!row.extra || valueOf(row).isEmpty()))
            continue; // no dead-letter queue chosen: no count to check
        const QString text = redrive ? static_cast<QLineEdit *>(row.extra)->text().trimmed() : valueOf(row);
        const QString refusal = rangeRefusal(row.description, text);
        if (refusal.isEmpty())
            continue;
        row.error->setMessage(refusal); // each takes the keyboard: the first gets it back below
        if (refused++ == 0) {
            first = &row;
            firstRefusal = refusal;
        }
    }
    if (first)
        showError(first->description.name, firstRefusal); // scrolls to it, the keyboard there
    return refused;
}

void AttributeForm::clearErrors()
{
    for (Row &row : m_rows) {
        if (!row.error->message().isEmpty())
            row.error->clearMessage();
    }
}

QString AttributeForm::errorAt(const QString &name) const
{
    for (const Row &row : m_rows) {
        if (row.description.name == name)
            return row.error->message();
    }
    return {};
}

QWidget *AttributeForm::input(const QString &name) const
{
    for (const Row &row : m_rows) {
        if (row.description.name == name)
            return row.input;
    }
    return nullptr;
}

QList<QWidget *> AttributeForm::focusChain() const
{
    QList<QWidget *> chain;
    for (const Row &row : m_rows) {
        chain << row.input;
        if (row.extra)
            chain << row.extra;
    }
    return chain;
}

} // namespace relaydesk
