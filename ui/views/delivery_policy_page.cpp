// SPDX-License-Identifier: MIT
#include "views/delivery_policy_page.h"

#include "broker/topics/delivery_policy_attribute.h"
#include "broker/topics/subscription_attributes.h"
#include "engine/broker_engine.h"
#include "engine/broker_service.h"
#include "widgets/adaptive_splitter.h"
#include "widgets/apply_bar.h"
#include "widgets/changed_elsewhere_banner.h"
#include "models/entity_attribute_calls.h"
#include "widgets/field_error.h"
#include "widgets/field_issue_marker.h"
#include "policy_editor/policy_editor.h"
#include "models/policy_evaluation.h"
#include "policy_editor/policy_field_form.h"

#include <nlohmann/json.hpp>

#include <algorithm>

#include <QCheckBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace relaydesk {
namespace {

using Entity = EntityChange::Entity;
constexpr std::string_view kDeliveryPolicy = "DeliveryPolicy";

QString attribute(const AttributeMap &map, std::string_view name)
{
    const auto it = map.find(std::string(name));
    return it == map.end() ? QString() : QString::fromStdString(it->second);
}

std::optional<DeliveryPolicy> readStored(const QString &text, DeliveryPolicyLevel level, const PolicyCheckContext &context)
{
    if (text.trimmed().isEmpty())
        return std::nullopt;
    Result<DeliveryPolicyAttribute> parsed = parseDeliveryPolicyAttribute(text.toStdString(), level, context);
    return parsed ? std::optional(parsed->policy) : std::nullopt;
}

// One row of the effective-policy table: the field (docs/behaviour.md §2.1 name), its value
// and which section (hence which origin) it belongs to.
struct EffectiveRow {
    const char *field;
    PolicySource EffectivePolicy::*source;
    QString (*value)(const DeliveryPolicy &);
};

const EffectiveRow kEffectiveRows[] = {
    {"numRetries", &EffectivePolicy::retrySource,
     [](const DeliveryPolicy &p) { return QString::number(p.retryOrDefault().numRetries); }},
    {"numNoDelayRetries", &EffectivePolicy::retrySource,
     [](const DeliveryPolicy &p) { return QString::number(p.retryOrDefault().numNoDelayRetries); }},
    {"numMinDelayRetries", &EffectivePolicy::retrySource,
     [](const DeliveryPolicy &p) { return QString::number(p.retryOrDefault().numMinDelayRetries); }},
    {"numMaxDelayRetries", &EffectivePolicy::retrySource,
     [](const DeliveryPolicy &p) { return QString::number(p.retryOrDefault().numMaxDelayRetries); }},
    {"minDelayTarget", &EffectivePolicy::retrySource,
     [](const DeliveryPolicy &p) { return QStringLiteral("%1 s").arg(p.retryOrDefault().minDelayTarget); }},
    {"maxDelayTarget", &EffectivePolicy::retrySource,
     [](const DeliveryPolicy &p) { return QStringLiteral("%1 s").arg(p.retryOrDefault().maxDelayTarget); }},
    {"backoffFunction", &EffectivePolicy::retrySource,
     [](const DeliveryPolicy &p) {
         const std::string_view name = backoffFunctionName(p.retryOrDefault().backoffFunction);
         return QString::fromUtf8(name.data(), qsizetype(name.size()));
     }},
    {"maxReceivesPerSecond", &EffectivePolicy::throttleSource,
     [](const DeliveryPolicy &p) {
         return p.maxReceivesPerSecond ? QStringLiteral("%1 /s").arg(*p.maxReceivesPerSecond)
                                       : DeliveryPolicyPage::tr("no limit");
     }},
    {"headerContentType", &EffectivePolicy::requestSource,
     [](const DeliveryPolicy &p) { return QString::fromStdString(p.headerContentTypeOrDefault()); }},
};

} // namespace

DeliveryPolicyPage::DeliveryPolicyPage(BrokerService &service, BrokerEngine &engine, EntityChange::Entity kind,
                                       const QString &nameOrArn, QWidget *parent)
    : QWidget(parent)
    , m_service(service)
    , m_kind(kind)
    , m_name(nameOrArn)
    , m_topicName(kind == Entity::Topic ? nameOrArn : QString())
{
    setObjectName(QStringLiteral("deliveryPolicyPage"));
    m_banner = new ChangedElsewhereBanner(this);
    connect(m_banner, &ChangedElsewhereBanner::reloadRequested, this, [this] {
        onLoaded(m_pendingOwn, m_pendingTopic, false);
        showMessage(tr("Reloaded the policy the broker has now."), false);
    });
    connect(m_banner, &ChangedElsewhereBanner::keepEditingRequested, this, [this] {
        m_storedText = attribute(m_pendingOwn, kDeliveryPolicy);
        showMessage(tr("Kept your edits; Apply replaces the stored policy with them."), false);
        updateState();
    });

    m_own = new QCheckBox(isSubscription() ? tr("This subscription has its &own delivery policy")
                                           : tr("This topic has its &own delivery policy"),
                          this);
    m_own->setToolTip(isSubscription() ? tr("Off: the topic's policy applies, else the defaults")
                                       : tr("Off: the defaults apply to subscriptions without a policy of their own"));
    m_own->setObjectName(QStringLiteral("ownPolicy"));
    connect(m_own, &QCheckBox::toggled, this, &DeliveryPolicyPage::updateState);
    m_fixedNote = new QLabel(tr("sqs subscriptions use the service's fixed sns-aws-managed policy (docs/behaviour.md §2.3); it "
                                "cannot be changed."),
                             this);
    m_fixedNote->setObjectName(QStringLiteral("fixedPolicyNote"));
    m_fixedNote->setWordWrap(true);
    m_fixedNote->hide();

    m_editor = new PolicyEditor(this);
    connect(m_editor, &PolicyEditor::evaluated, this, &DeliveryPolicyPage::updateState);
    m_error = new FieldError(m_editor->findChild<QPlainTextEdit *>(QStringLiteral("policyJson")),
                             QStringLiteral("deliveryPolicy"), this);

    QWidget *centre = m_editor;
    if (isSubscription()) {
        auto *box = new QGroupBox(tr("Effective policy"), this);
        m_override = new QLabel(box);
        m_override->setObjectName(QStringLiteral("overrideNote"));
        m_override->setWordWrap(true);
        m_effective = new QTableWidget(int(std::size(kEffectiveRows)), 3, box);
        m_effective->setObjectName(QStringLiteral("effectivePolicy"));
        m_effective->setAccessibleName(tr("Effective policy"));
        m_effective->setHorizontalHeaderLabels({tr("Field"), tr("Value"), tr("From")});
        m_effective->verticalHeader()->hide();
        m_effective->setEditTriggers(QAbstractItemView::NoEditTriggers);
        m_effective->setTabKeyNavigation(false);
        m_effective->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        m_effective->setWordWrap(false);
        m_effective->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
        m_effective->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
        m_effective->horizontalHeader()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
        m_effective->verticalHeader()->setDefaultSectionSize(m_effective->fontMetrics().height() + 8);
        m_effective->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);   // every row, no scrolling
        m_effective->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        m_effective->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
        m_effective->horizontalHeader()->setStretchLastSection(true);
        auto *hint = new QLabel(tr("What deliveries use now, as stored: each section comes from the subscription, else "
                                   "the topic, else the defaults — unless the topic disables subscription overrides."),
                                box);
        hint->setWordWrap(true);
        hint->setForegroundRole(QPalette::PlaceholderText);
        auto *boxLayout = new QVBoxLayout(box);
        boxLayout->addWidget(m_override);
        boxLayout->addWidget(m_effective);
        boxLayout->addWidget(hint);
        boxLayout->addStretch(1);
        // The effective policy beside the editor where both fit, below it otherwise.
        auto *splitter = new AdaptiveSplitter(this);
        splitter->setObjectName(QStringLiteral("policySplitter"));
        splitter->addWidget(m_editor);
        splitter->addWidget(box);
        splitter->setStretchFactor(0, 1);
        splitter->setStretchFactor(1, 0);
        splitter->setSizes({900, 440});
        splitter->setPaneWidth(0, [editor = m_editor] { return editor->sideBySideWidth(); }); // form beside the chart first
        centre = splitter;
    }

    m_bar = new ApplyBar(tr("Write the DeliveryPolicy attribute to the broker."), this);
    connect(m_bar, &ApplyBar::applyRequested, this, &DeliveryPolicyPage::apply);
    connect(m_bar, &ApplyBar::revertRequested, this, &DeliveryPolicyPage::revert);

    m_try = new QPushButton(tr("&Try a Policy…"), this);
    m_try->setObjectName(QStringLiteral("tryPolicy"));
    m_try->setToolTip(tr("Subscribe a mock endpoint that fails as scripted with this policy, publish a test "
                         "message and watch its deliveries"));
    connect(m_try, &QPushButton::clicked, this, [this] { emit tryPolicyRequested(m_editor->jsonText()); });

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_banner);
    auto *ownRow = new QHBoxLayout;
    ownRow->addWidget(m_own, 1);
    ownRow->addWidget(m_try);
    layout->addLayout(ownRow);
    layout->addWidget(m_fixedNote);
    // The editor scrolls inside the page, so the Apply bar below stays in
    // sight at any font size or window height.
    auto *scroll = new QScrollArea(this);
    scroll->setFocusPolicy(Qt::NoFocus); // its fields are the Tab stops (scrolled into view); the area is none: AT-SPI read it as an unnamed stop
    scroll->setObjectName(QStringLiteral("policyScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(centre);
    // It takes the room there is, not the editor's whole height: a page sized
    // by its preferred heights would push the bar down again.
    scroll->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Ignored);
    scroll->setMinimumHeight(scroll->fontMetrics().height() * 8);
    layout->addWidget(scroll, 1);
    layout->addWidget(m_error);
    layout->addWidget(m_bar);
    setTabOrder(m_own, m_editor);

    connect(&engine, &BrokerEngine::changesPublished, this, &DeliveryPolicyPage::onChanges);
    load(false);
}

DeliveryPolicyPage::~DeliveryPolicyPage() = default;

void DeliveryPolicyPage::load(bool fromChange, const QString &note)
{
    m_busy = true;
    m_note = note;
    updateState();
    const auto withTopic = [this, fromChange](const AttributeMap &own) {
        m_service.getTopicAttributes(m_topicName.toStdString(), this, [this, own, fromChange](Result<AttributeMap> topic) {
            onLoaded(own, topic ? topic.value() : AttributeMap{}, fromChange);
        });
    };
    if (!isSubscription()) {
        m_service.getTopicAttributes(m_name.toStdString(), this, [this, fromChange](Result<AttributeMap> topic) {
            if (!topic) {
                showMessage(QString::fromStdString(topic.error().message), true);
                finish();
                return;
            }
            onLoaded(topic.value(), topic.value(), fromChange);
        });
        return;
    }
    m_service.getSubscriptionAttributes(m_name.toStdString(), this, [this, withTopic](Result<AttributeMap> own) {
        if (!own) {
            showMessage(QString::fromStdString(own.error().message), true);
            finish();
            return;
        }
        m_topicName = nameFromArn(attribute(own.value(), "TopicArn"));
        withTopic(own.value());
    });
}

void DeliveryPolicyPage::onLoaded(const AttributeMap &own, const AttributeMap &topic, bool fromChange)
{
    m_topicText = attribute(topic, kDeliveryPolicy);
    const QString stored = attribute(own, kDeliveryPolicy);
    if (fromChange && (stored == m_storedText || isModified())) {
        if (stored != m_storedText) {
            m_pendingOwn = own;
            m_pendingTopic = topic;
            m_banner->showChanged(tr("This %1's delivery policy was changed elsewhere while you were editing.")
                                      .arg(isSubscription() ? tr("subscription") : tr("topic")));
        }
        showEffective();
        finish();
        return;
    }
    m_banner->hide();
    if (isSubscription()) {
        const Result<EndpointProtocol> protocol = parseSubscriptionProtocol(attribute(own, "Protocol").toStdString());
        m_protocol = protocol ? protocol.value() : EndpointProtocol::Http;
        m_rawDelivery = attribute(own, "RawMessageDelivery") == QLatin1String("true");
        m_editor->setProtocol(m_protocol);
        m_editor->setRawDelivery(m_rawDelivery);
    }
    m_storedText = stored;
    m_own->setChecked(!stored.isEmpty());
    showOwnPolicy(stored);
    showEffective();
    showMessage(fromChange ? tr("Updated: the policy was changed elsewhere.") : m_note, false);
    finish();
}

void DeliveryPolicyPage::showOwnPolicy(const QString &text)
{
    showBrokerError({});
    if (text.isEmpty() && isSubscription() && m_protocol == EndpointProtocol::Sqs) {
        m_editor->applyPreset(QStringLiteral("sns-aws-managed"));   // the fixed policy, shown as such
    } else if (text.isEmpty() && isSubscription()) {
        // No policy of its own: show what applies; ticking "own policy" starts from it.
        m_editor->loadDocument(policyJsonText(effectivePolicy().policy), tr("effective policy"));
    } else if (text.isEmpty()) {
        m_editor->applyPreset(QStringLiteral("sns-default"));
        m_editor->setPolicyForm(PolicyForm::SnsTopic);
    } else {
        // Stored as given (often one line); shown indented, keys in their order.
        const nlohmann::ordered_json document = nlohmann::ordered_json::parse(text.toStdString(), nullptr, false);
        m_editor->loadDocument(document.is_discarded() ? text : QString::fromStdString(document.dump(2)),
                               tr("stored policy"));
    }
    m_shownText = m_editor->jsonText();
}

EffectivePolicy DeliveryPolicyPage::effectivePolicy() const
{
    const PolicyCheckContext context{m_protocol, m_rawDelivery};
    return resolveEffectivePolicy(m_protocol, readStored(m_storedText, DeliveryPolicyLevel::Subscription, context),
                                  readStored(m_topicText, DeliveryPolicyLevel::Topic, PolicyCheckContext{}));
}

void DeliveryPolicyPage::showEffective()
{
    if (!m_effective)
        return;
    const EffectivePolicy effective = effectivePolicy();
    int row = 0;
    for (const EffectiveRow &line : kEffectiveRows) {
        const PolicySource source = effective.*line.source;
        const std::string_view sourceName = policySourceName(source);
        QString from = QString::fromUtf8(sourceName.data(), qsizetype(sourceName.size()));
        if (source == PolicySource::Topic && effective.overridesDisabled)
            from = tr("topic (overrides disabled)");
        const QString cells[] = {QString::fromLatin1(line.field), line.value(effective.policy), from};
        for (int column = 0; column < 3; ++column) {
            QTableWidgetItem *item = m_effective->item(row, column);
            if (!item)
                m_effective->setItem(row, column, item = new QTableWidgetItem);
            item->setText(cells[column]);
            item->setToolTip(cells[column]);
        }
        ++row;
    }
    // Every value whole ("30 s", not "…"): the table is as wide as its columns.
    const QAbstractItemView &view = *m_effective; // sizeHintForColumn is public there
    int width = 2 * m_effective->frameWidth();
    for (int column = 0; column < 3; ++column)
        width += std::max(view.sizeHintForColumn(column), m_effective->horizontalHeader()->sectionSizeHint(column));
    m_effective->setMinimumWidth(width);
    if (m_protocol == EndpointProtocol::Sqs) {
        m_override->setText(tr("sqs subscription: the fixed sns-aws-managed policy applies."));
    } else {
        m_override->setText(effective.overridesDisabled
                                ? tr("Topic %1 disables subscription overrides (disableSubscriptionOverrides = true): "
                                     "its policy applies, this subscription's own policy is ignored.")
                                      .arg(m_topicName)
                                : tr("Topic %1 allows subscription overrides (disableSubscriptionOverrides = false).")
                                      .arg(m_topicName));
    }
}

bool DeliveryPolicyPage::isModified() const
{
    const bool own = m_own->isChecked();
    return own != !m_storedText.isEmpty() || (own && m_editor->jsonText() != m_shownText);
}

void DeliveryPolicyPage::apply()
{
    if (m_busy || m_gone)
        return;
    const QString text = m_own->isChecked() ? m_editor->jsonText().trimmed() : QString();
    showBrokerError({});
    m_busy = true;
    updateState();
    showMessage(tr("Applying…"), false);
    auto done = [this](Status status) {
        if (!status) {
            showBrokerError(QString::fromStdString(status.error().message));
            showMessage(tr("Nothing was changed: the broker refused the policy."), true);
            finish();
            return;
        }
        load(false, tr("Applied."));
    };
    if (isSubscription())
        m_service.setSubscriptionAttribute(m_name.toStdString(), std::string(kDeliveryPolicy), text.toStdString(), this,
                                           std::move(done));
    else
        m_service.setTopicAttribute(m_name.toStdString(), std::string(kDeliveryPolicy), text.toStdString(), this,
                                    std::move(done));
}

void DeliveryPolicyPage::showBrokerError(const QString &message)
{
    m_error->setMessage(message);
    if (message.isEmpty())
        return;
    // "…DeliveryPolicy: <field> <problem>; <field> <problem>" (docs/behaviour.md §10): mark each field named.
    const QString marker = QStringLiteral("DeliveryPolicy: ");
    const qsizetype at = message.indexOf(marker);
    if (at < 0)
        return;
    const std::optional<DeliveryPolicy> &policy = m_editor->evaluation().policy();
    const PolicyForm form = policy ? policy->form : isSubscription() ? PolicyForm::SnsSubscription : PolicyForm::SnsTopic;
    const QStringList problems = message.mid(at + marker.size()).split(QStringLiteral("; "));
    for (const QString &problem : problems) {
        if (QWidget *field = m_editor->fieldForm()->widgetForPath(form, problem.section(QLatin1Char(' '), 0, 0).toStdString()))
            FieldIssueMarker::mark(field, QStringLiteral("error"), problem);
    }
}

void DeliveryPolicyPage::revert()
{
    m_banner->hide();
    m_own->setChecked(!m_storedText.isEmpty());
    showOwnPolicy(m_storedText);
    showMessage({}, false);
    updateState();
}

void DeliveryPolicyPage::onChanges(const QList<EntityChange> &changes)
{
    for (const EntityChange &change : changes) {
        const bool mine = change.entity == m_kind && change.name == m_name;
        const bool myTopic = isSubscription() && change.entity == Entity::Topic && change.name == m_topicName;
        if (!mine && !myTopic)
            continue;
        if (mine && change.kind == EntityChange::Kind::Deleted) {
            m_gone = true;
            m_banner->showGone(tr("This %1 no longer exists.").arg(isSubscription() ? tr("subscription") : tr("topic")));
            updateState();
        } else if (change.kind == EntityChange::Kind::Changed || change.kind == EntityChange::Kind::Created) {
            if (m_busy)
                m_recheck = true;
            else
                load(true);
        }
    }
}

void DeliveryPolicyPage::finish()
{
    m_busy = false;
    updateState();
    if (m_recheck && !m_gone) {
        m_recheck = false;
        load(true);
        return;
    }
    emit settled();
}

void DeliveryPolicyPage::updateState()
{
    const bool fixed = isSubscription() && m_protocol == EndpointProtocol::Sqs;
    m_fixedNote->setVisible(fixed);
    m_own->setEnabled(!fixed && !m_gone);
    m_editor->setEnabled(m_own->isChecked() && !fixed && !m_gone);
    m_bar->setState(isModified(), m_busy, !m_gone && !fixed);
}

void DeliveryPolicyPage::showMessage(const QString &text, bool isError)
{
    m_bar->showMessage(text, isError);
}

QString DeliveryPolicyPage::message() const
{
    return m_bar->message();
}

QString DeliveryPolicyPage::brokerError() const
{
    return m_error->message();
}

QString DeliveryPolicyPage::overrideNote() const
{
    return m_override ? m_override->text() : QString();
}

} // namespace relaydesk
