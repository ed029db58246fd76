// SPDX-License-Identifier: MIT
#include "widgets/apply_bar.h"

#include "widgets/error_text.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace relaydesk {

ApplyBar::ApplyBar(const QString &applyTip, QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("applyBar"));
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("applyMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setFocusPolicy(Qt::NoFocus); // until it says something: an empty focusable label is an unnamed stop
    m_revert = new QPushButton(tr("Re&vert"), this);
    m_revert->setObjectName(QStringLiteral("revertButton"));
    m_revert->setToolTip(tr("Show the stored values again, dropping your edits."));
    m_apply = new QPushButton(tr("Appl&y"), this);
    m_apply->setObjectName(QStringLiteral("applyButton"));
    m_apply->setToolTip(applyTip + tr(" (Ctrl+Return)"));
    m_apply->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    connect(m_revert, &QPushButton::clicked, this, &ApplyBar::revertRequested);
    connect(m_apply, &QPushButton::clicked, this, &ApplyBar::applyRequested);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_message, 1);
    layout->addWidget(m_revert);
    layout->addWidget(m_apply);
}

ApplyBar::~ApplyBar() = default;

void ApplyBar::showMessage(const QString &text, bool isError)
{
    m_message->setText(text);
    m_message->setFocusPolicy(text.isEmpty() ? Qt::NoFocus : Qt::ClickFocus);
    showAsError(m_message, isError);
}

QString ApplyBar::message() const
{
    return m_message->text();
}

void ApplyBar::setState(bool modified, bool busy, bool canApply)
{
    m_apply->setEnabled(modified && !busy && canApply);
    m_revert->setEnabled(modified && !busy);
}

} // namespace relaydesk
