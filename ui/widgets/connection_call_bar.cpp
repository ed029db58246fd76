// SPDX-License-Identifier: MIT
#include "widgets/connection_call_bar.h"

#include "connections/connection_call.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>

namespace relaydesk {

ConnectionCallBar::ConnectionCallBar(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("connectionCallBar"));
    m_text = new QLabel(this);
    m_bar = new QProgressBar(this);
    m_bar->setAccessibleName(tr("Progress"));
    m_bar->setMaximumWidth(fontMetrics().averageCharWidth() * 24);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName(QStringLiteral("cancelCall"));
    connect(m_cancel, &QPushButton::clicked, this, &ConnectionCallBar::cancel);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_text);
    layout->addWidget(m_bar);
    layout->addWidget(m_cancel);
    layout->addStretch(1);
    hide();
}

void ConnectionCallBar::cancel()
{
    if (m_call)
        m_call->cancel();
}

void ConnectionCallBar::track(ConnectionCall *call, const QString &what)
{
    m_call = call;
    m_text->setText(what);
    m_bar->setRange(0, 0);   // busy until a total comes
    show();
    connect(call, &ConnectionCall::progress, this, [this](qint64 done, qint64 total) {
        if (total > 0) {
            m_bar->setRange(0, static_cast<int>(total));
            m_bar->setValue(static_cast<int>(done));
        }
    });
    connect(call, &ConnectionCall::finished, this, [this, call] {
        if (m_call != call)
            return;   // a later call is tracked already
        m_call = nullptr;
        hide();
        emit idle();
    });
}

} // namespace relaydesk
