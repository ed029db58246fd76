// SPDX-License-Identifier: MIT
#include "widgets/field_issue_marker.h"

#include <QEvent>
#include <QPainter>

namespace relaydesk {
namespace {

const char *const kIssueProperty = "policyIssue";

// Saturated enough to read on light and dark palettes alike.
QColor colourOf(const QString &kind)
{
    return kind == QLatin1String("error") ? QColor(0xd9, 0x30, 0x25) : QColor(0xe8, 0xa2, 0x00);
}

} // namespace

FieldIssueMarker::FieldIssueMarker(QWidget *input)
    : QWidget(input)
{
    setObjectName(QStringLiteral("issueMarker"));
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
    setFocusPolicy(Qt::NoFocus);
    input->installEventFilter(this);
    setGeometry(input->rect());
    hide();
}

FieldIssueMarker::~FieldIssueMarker() = default;

void FieldIssueMarker::mark(QWidget *input, const QString &kind, const QString &tip)
{
    input->setToolTip(tip);
    if (input->property(kIssueProperty).toString() == kind)
        return;
    input->setProperty(kIssueProperty, kind);
    auto *marker = input->findChild<FieldIssueMarker *>(QString(), Qt::FindDirectChildrenOnly);
    if (!marker && kind.isEmpty())
        return;
    if (!marker)
        marker = new FieldIssueMarker(input);
    marker->setKind(kind);
}

void FieldIssueMarker::setKind(const QString &kind)
{
    m_kind = kind;
    setVisible(!kind.isEmpty());
    if (!kind.isEmpty()) {
        setGeometry(parentWidget()->rect());
        raise();   // above the input's own children (line edit, buttons)
    }
    update();
}

void FieldIssueMarker::paintEvent(QPaintEvent *)
{
    if (m_kind.isEmpty())
        return;
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    QPen pen(colourOf(m_kind), 2);
    painter.setPen(pen);
    painter.setBrush(Qt::NoBrush);
    painter.drawRoundedRect(QRectF(rect()).adjusted(1, 1, -1, -1), 3, 3);
}

bool FieldIssueMarker::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == parent() && event->type() == QEvent::Resize)
        setGeometry(parentWidget()->rect());
    return QWidget::eventFilter(watched, event);
}

} // namespace relaydesk
