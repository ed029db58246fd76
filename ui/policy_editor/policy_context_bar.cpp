// SPDX-License-Identifier: MIT
#include "policy_editor/policy_context_bar.h"

#include "policy_editor/policy_field_help.h"
#include "widgets/flow_layout.h"

#include <QCheckBox>
#include <QComboBox>
#include <QVBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>

namespace relaydesk {
namespace {

QString fromStd(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

} // namespace

PolicyContextBar::PolicyContextBar(QMenu *presets, QAction *open, QAction *save, QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("policyContextBar"));
    m_formSelector = new QComboBox(this);
    m_formSelector->setObjectName(QStringLiteral("formSelector"));
    for (PolicyForm form : {PolicyForm::SnsSubscription, PolicyForm::SnsTopic, PolicyForm::Zaqar})
        m_formSelector->addItem(fromStd(policyFormName(form)), int(form));
    m_formSelector->setToolTip(policyFormSelectorTip());
    connect(m_formSelector, &QComboBox::currentIndexChanged, this,
            [this](int index) { emit formRequested(PolicyForm(m_formSelector->itemData(index).toInt())); });

    m_protocolSelector = new QComboBox(this);
    m_protocolSelector->setObjectName(QStringLiteral("protocolSelector"));
    for (EndpointProtocol protocol : {EndpointProtocol::Http, EndpointProtocol::Https, EndpointProtocol::Sqs})
        m_protocolSelector->addItem(fromStd(endpointProtocolName(protocol)), int(protocol));
    m_protocolSelector->setToolTip(endpointProtocolTip());
    connect(m_protocolSelector, &QComboBox::currentIndexChanged, this, &PolicyContextBar::contextChanged);

    m_rawDelivery = new QCheckBox(tr("Ra&w delivery"), this);
    m_rawDelivery->setObjectName(QStringLiteral("rawDelivery"));
    m_rawDelivery->setToolTip(tr("The subscription delivers raw messages: besides application/json and text/plain, "
                                 "the Content-Type may then be any text/*, application/xml, "
                                 "application/octet-stream and similar media type."));
    connect(m_rawDelivery, &QCheckBox::toggled, this, &PolicyContextBar::contextChanged);

    m_presets = new QPushButton(tr("Pre&sets"), this);
    m_presets->setObjectName(QStringLiteral("presetButton"));
    m_presets->setToolTip(tr("Load one of the service's named policies: the SNS default, the documentation's "
                             "example, the two fixed service policies, and the Zaqar defaults"));
    m_presets->setMenu(presets);
    m_open = new QToolButton(this);
    m_open->setDefaultAction(open);
    m_save = new QToolButton(this);
    m_save->setDefaultAction(save);

    auto *formLabel = new QLabel(tr("&Form:"), this);
    formLabel->setBuddy(m_formSelector);
    auto *protocolLabel = new QLabel(tr("P&rotocol:"), this);
    protocolLabel->setBuddy(m_protocolSelector);

    // Rows that wrap rather than widen the page (narrow windows, large fonts).
    auto *context = new FlowLayout(nullptr, 12);
    context->addWidget(labelledPair(formLabel, m_formSelector, this));
    context->addWidget(labelledPair(protocolLabel, m_protocolSelector, this));
    context->addWidget(m_rawDelivery);
    auto *files = new FlowLayout(nullptr, 6);
    files->addWidget(m_presets);
    files->addWidget(m_open);
    files->addWidget(m_save);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(context);
    layout->addLayout(files);
}

PolicyContextBar::~PolicyContextBar() = default;

PolicyCheckContext PolicyContextBar::checkContext() const
{
    PolicyCheckContext context;
    context.protocol = EndpointProtocol(m_protocolSelector->currentData().toInt());
    context.rawDelivery = m_rawDelivery->isChecked();
    return context;
}

void PolicyContextBar::setProtocol(EndpointProtocol protocol)
{
    m_protocolSelector->setCurrentIndex(m_protocolSelector->findData(int(protocol)));
}

void PolicyContextBar::setRawDelivery(bool raw)
{
    m_rawDelivery->setChecked(raw);
}

PolicyForm PolicyContextBar::selectedForm() const
{
    return PolicyForm(m_formSelector->currentData().toInt());
}

void PolicyContextBar::showForm(PolicyForm form)
{
    const QSignalBlocker blocker(m_formSelector);
    m_formSelector->setCurrentIndex(m_formSelector->findData(int(form)));
}

QList<QWidget *> PolicyContextBar::focusChain() const
{
    return {m_formSelector, m_protocolSelector, m_rawDelivery, m_presets, m_open, m_save};
}

} // namespace relaydesk
