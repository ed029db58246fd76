// SPDX-License-Identifier: MIT
#include "widgets/changed_elsewhere_banner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace relaydesk {

ChangedElsewhereBanner::ChangedElsewhereBanner(QWidget *parent)
    : QFrame(parent)
{
    setObjectName(QStringLiteral("changedElsewhereBanner"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::ToolTipBase);
    setForegroundRole(QPalette::ToolTipText);
    m_text = new QLabel(this);
    m_text->setObjectName(QStringLiteral("bannerText"));
    m_text->setWordWrap(true);
    m_text->setForegroundRole(QPalette::ToolTipText);
    m_reload = new QPushButton(tr("Reload"), this);
    m_reload->setObjectName(QStringLiteral("reloadButton"));
    m_reload->setAccessibleName(tr("Reload"));
    m_reload->setToolTip(tr("Show the values the broker has now; your unapplied edits are dropped."));
    m_keep = new QPushButton(tr("Keep editing"), this);
    m_keep->setObjectName(QStringLiteral("keepEditingButton"));
    m_keep->setAccessibleName(tr("Keep editing"));
    m_keep->setToolTip(tr("Keep your edits; Apply writes only the fields you changed."));
    connect(m_reload, &QPushButton::clicked, this, [this] {
        hide();
        emit reloadRequested();
    });
    connect(m_keep, &QPushButton::clicked, this, [this] {
        hide();
        emit keepEditingRequested();
    });
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_reload);
    layout->addWidget(m_keep);
    hide();
}

ChangedElsewhereBanner::~ChangedElsewhereBanner() = default;

void ChangedElsewhereBanner::showChanged(const QString &text)
{
    m_text->setText(text);
    m_reload->show();
    m_keep->show();
    show();
}

void ChangedElsewhereBanner::showGone(const QString &text)
{
    m_text->setText(text);
    m_reload->hide();
    m_keep->hide();
    show();
}

QString ChangedElsewhereBanner::text() const
{
    return isHidden() ? QString() : m_text->text();
}

} // namespace relaydesk
