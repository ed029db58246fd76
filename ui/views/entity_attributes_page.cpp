// SPDX-License-Identifier: MIT
#include "views/entity_attributes_page.h"

#include "engine/broker_engine.h"
#include "engine/broker_service.h"
#include "widgets/apply_bar.h"
#include "widgets/attribute_form.h"
#include "widgets/changed_elsewhere_banner.h"
#include "models/entity_attribute_calls.h"

#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace relaydesk {
namespace {

using Entity = EntityChange::Entity;

AttributeValues toValues(const AttributeMap &map)
{
    AttributeValues values;
    for (const auto &[name, value] : map)
        values.insert(QString::fromStdString(name), QString::fromStdString(value));
    return values;
}

AttributeMap toMap(const AttributeValues &values)
{
    AttributeMap map;
    for (auto it = values.cbegin(); it != values.cend(); ++it)
        map[it.key().toStdString()] = it.value().toStdString();
    return map;
}

// The attributes the form shows, to tell a change elsewhere from a change of
// computed values (counts, timestamps).
AttributeMap shown(const AttributeMap &attributes, Entity kind)
{
    AttributeMap out;
    for (const AttributeDescription &d : attributeDescriptions(kind)) {
        if (const auto it = attributes.find(d.name.toStdString()); it != attributes.end())
            out.insert(*it);
    }
    return out;
}

} // namespace

EntityAttributesPage::EntityAttributesPage(BrokerService &service, BrokerEngine &engine, EntityChange::Entity kind,
                                           const QString &nameOrArn, QWidget *parent)
    : QWidget(parent)
    , m_service(service)
    , m_kind(kind)
    , m_name(nameOrArn)
{
    setObjectName(QStringLiteral("entityAttributesPage"));
    m_banner = new ChangedElsewhereBanner(this);
    connect(m_banner, &ChangedElsewhereBanner::reloadRequested, this, [this] {
        onLoaded(m_pending, m_pendingTags, false);
        showMessage(tr("Reloaded the values the broker has now."), false);
    });
    connect(m_banner, &ChangedElsewhereBanner::keepEditingRequested, this, [this] {
        m_current = m_pending;   // Apply writes only the fields edited here
        showMessage(tr("Kept your edits; Apply writes only the fields you changed."), false);
    });

    m_form = new AttributeForm(attributeDescriptions(kind), AttributeForm::Mode::Edit, this);
    connect(m_form, &AttributeForm::edited, this, &EntityAttributesPage::updateButtons);
    auto *content = new QWidget(this);
    auto *contentLayout = new QVBoxLayout(content);
    contentLayout->addWidget(m_form);
    if (hasTags()) {
        auto *tagBox = new QGroupBox(tr("Tags"), content);
        m_tags = new TagEditor(tagBox);
        connect(m_tags, &TagEditor::edited, this, &EntityAttributesPage::updateButtons);
        auto *tagLayout = new QVBoxLayout(tagBox);
        tagLayout->addWidget(m_tags);
        contentLayout->addWidget(tagBox);
    }
    contentLayout->addStretch(1);
    auto *scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("attributeScroll"));
    // Its fields are Tab stops of their own (each scrolled into view): the area itself is none.
    scroll->setFocusPolicy(Qt::NoFocus);
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    // The room there is, not the form's whole height, so the Apply bar below stays in sight.
    scroll->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Ignored);
    scroll->setMinimumHeight(scroll->fontMetrics().height() * 8);

    m_bar = new ApplyBar(tr("Write the changed attributes and tags to the broker."), this);
    connect(m_bar, &ApplyBar::applyRequested, this, &EntityAttributesPage::apply);
    connect(m_bar, &ApplyBar::revertRequested, this, &EntityAttributesPage::revert);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_banner);
    layout->addWidget(scroll, 1);
    layout->addWidget(m_bar);

    QList<QWidget *> chain{m_banner->findChild<QPushButton *>(QStringLiteral("reloadButton")),
                           m_banner->findChild<QPushButton *>(QStringLiteral("keepEditingButton"))};
    chain += m_form->focusChain();
    if (m_tags)
        chain += m_tags->focusChain();
    chain << m_bar->revertButton() << m_bar->applyButton();
    for (qsizetype i = 0; i + 1 < chain.size(); ++i)
        setTabOrder(chain[i], chain[i + 1]);

    connect(&engine, &BrokerEngine::changesPublished, this, &EntityAttributesPage::onChanges);
    loadQueueChoicesNow();
    load(false);
}

EntityAttributesPage::~EntityAttributesPage() = default;

QString EntityAttributesPage::kindWord() const
{
    switch (m_kind) {
    case Entity::Queue:
        return tr("queue");
    case Entity::Topic:
        return tr("topic");
    case Entity::Subscription:
        break;
    }
    return tr("subscription");
}

void EntityAttributesPage::load(bool fromChange, const QString &note)
{
    m_busy = true;
    updateButtons();
    if (!fromChange)
        showMessage(tr("Loading…"), false);
    m_note = note;
    loadEntityAttributes(m_service, m_kind, m_name, this, [this, fromChange](Result<AttributeMap> attributes) {
        if (!attributes) {
            showMessage(QString::fromStdString(attributes.error().message), true);
            finish();
            return;
        }
        if (!hasTags()) {
            onLoaded(std::move(attributes).value(), {}, fromChange);
            return;
        }
        AttributeMap loaded = std::move(attributes).value();
        loadEntityTags(m_service, m_kind, m_name, this, [this, loaded, fromChange](Result<EntityTags> tags) {
            onLoaded(loaded, tags ? tags.value() : EntityTags{}, fromChange);
        });
    });
}

void EntityAttributesPage::onLoaded(AttributeMap attributes, TagEditor::Tags tags, bool fromChange)
{
    if (fromChange) {
        const bool same = shown(attributes, m_kind) == shown(m_current, m_kind) && (!m_tags || tags == m_tags->baseline());
        const bool edited = m_form->isModified() || (m_tags && m_tags->isModified());
        if (same) {
            finish();
            return;
        }
        if (edited) {
            m_pending = std::move(attributes);
            m_pendingTags = std::move(tags);
            m_banner->showChanged(tr("This %1 was changed elsewhere while you were editing.").arg(kindWord()));
            finish();
            return;
        }
    }
    m_banner->hide();
    m_current = std::move(attributes);
    m_form->setValues(toValues(m_current));
    if (m_tags)
        m_tags->setTags(tags);
    showMessage(fromChange ? tr("Updated: the %1 was changed elsewhere.").arg(kindWord()) : m_note, false);
    finish();
}

void EntityAttributesPage::finish()
{
    m_busy = false;
    updateButtons();
    if (m_recheck && !m_gone) {
        m_recheck = false;
        load(true);
        return;
    }
    emit settled();
}

void EntityAttributesPage::apply()
{
    if (m_busy || m_gone)
        return;
    m_form->clearErrors();
    if (m_tags)
        m_tags->showError({});
    const AttributeValues changes = m_form->changes();
    m_busy = true;
    updateButtons();
    showMessage(tr("Applying…"), false);
    const auto writeTags = [this] {
        if (!m_tags || !m_tags->isModified()) {
            load(false, tr("Applied."));
            return;
        }
        applyEntityTags(m_service, m_kind, m_name, m_tags->baseline(), m_tags->tags(), this, [this](Status status) {
            if (!status) {
                m_tags->showError(QString::fromStdString(status.error().message));
                showMessage(tr("The attributes were applied; the tags were refused."), true);
                finish();
                return;
            }
            load(false, tr("Applied."));
        });
    };
    if (changes.isEmpty()) {
        writeTags();
        return;
    }
    applyEntityAttributes(m_service, m_kind, m_name, m_current, toMap(changes), this,
                          [this, changes, writeTags](Status status) {
                              if (!status) {
                                  const QString text = QString::fromStdString(status.error().message);
                                  if (m_form->showBrokerError(text, changes.keys()))
                                      showMessage(tr("Nothing was changed: the broker refused a value."), true);
                                  else
                                      showMessage(text, true);
                                  finish();
                                  return;
                              }
                              writeTags();
                          });
}

void EntityAttributesPage::revert()
{
    m_banner->hide();
    m_form->setValues(toValues(m_current));
    if (m_tags)
        m_tags->setTags(m_tags->baseline());
    showMessage({}, false);
    updateButtons();
}

void EntityAttributesPage::onChanges(const QList<EntityChange> &changes)
{
    for (const EntityChange &change : changes) {
        if (change.entity == Entity::Queue && change.kind != EntityChange::Kind::CountsChanged &&
            change.kind != EntityChange::Kind::Changed)
            loadQueueChoicesNow();
        if (change.entity != m_kind || change.name != m_name)
            continue;
        if (change.kind == EntityChange::Kind::Deleted) {
            m_gone = true;
            m_banner->showGone(tr("This %1 no longer exists.").arg(kindWord()));
            updateButtons();
        } else if (change.kind != EntityChange::Kind::CountsChanged &&
                   change.kind != EntityChange::Kind::AttemptsLogged) {
            m_gone = false;
            if (m_busy)
                m_recheck = true;   // look again when the load or apply under way is done
            else
                load(true);
        }
    }
}

void EntityAttributesPage::loadQueueChoicesNow()
{
    loadQueueChoices(m_service, this, [this](Result<QList<QPair<QString, QString>>> queues) {
        if (queues)
            m_form->setQueueChoices(queues.value());
    });
}

void EntityAttributesPage::updateButtons()
{
    m_bar->setState(m_form->isModified() || (m_tags && m_tags->isModified()), m_busy, !m_gone);
    m_form->setEnabled(!m_gone);
}

void EntityAttributesPage::showMessage(const QString &text, bool isError)
{
    m_bar->showMessage(text, isError);
}

QString EntityAttributesPage::message() const
{
    return m_bar->message();
}

} // namespace relaydesk
