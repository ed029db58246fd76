// SPDX-License-Identifier: MIT
#pragma once

#include "broker/attribute_text.h"
#include "engine/entity_change.h"
#include "widgets/tag_editor.h"

#include <QWidget>

namespace relaydesk {

class ApplyBar;
class AttributeForm;
class BrokerEngine;
class BrokerService;
class ChangedElsewhereBanner;

// The Attributes tab of a queue, topic or subscription (docs/behaviour.md §8.4): every
// attribute of the entity's AttributeDescription table with unit, range and
// explanation; tags for queues and topics; Apply writes what was changed
// through BrokerService (an invalid value is refused at its field with the
// broker's message, nothing changed), Revert shows the stored values again.
// A change made elsewhere (BrokerEngine::changesPublished) reloads the page
// when it holds no edits, and otherwise shows a banner "changed elsewhere —
// Reload / Keep editing" (no silent overwrite). DeliveryPolicy is edited on
// the DeliveryPolicyPage.
//
// Ownership: borrows the service and the engine (they outlive the page);
// owns its widgets. Thread: GUI thread; broker replies come back queued.
class EntityAttributesPage final : public QWidget {
    Q_OBJECT
public:
    EntityAttributesPage(BrokerService &service, BrokerEngine &engine, EntityChange::Entity kind,
                         const QString &nameOrArn, QWidget *parent = nullptr);
    ~EntityAttributesPage() override;
    EntityAttributesPage(const EntityAttributesPage &) = delete;
    EntityAttributesPage &operator=(const EntityAttributesPage &) = delete;

    // Writes the changed attributes (then tags), then reloads.
    void apply();
    // Shows the stored values again.
    void revert();

    AttributeForm *form() const { return m_form; }
    TagEditor *tagEditor() const { return m_tags; }
    ChangedElsewhereBanner *banner() const { return m_banner; }
    // The line under the buttons: "Applied.", load errors, errors naming no field.
    QString message() const;
    // True while a load or an apply is under way.
    bool isBusy() const { return m_busy; }

signals:
    // After every load, apply or failure (for tests and the status bar).
    void settled();

private:
    // Loads attributes (and tags); `fromChange`: after a change event (compare, banner); `note`: shown after.
    void load(bool fromChange, const QString &note = {});
    void onLoaded(AttributeMap attributes, TagEditor::Tags tags, bool fromChange);
    void onChanges(const QList<EntityChange> &changes);
    void checkChangedElsewhere();
    void loadQueueChoicesNow();
    void updateButtons();
    void showMessage(const QString &text, bool isError);
    void finish();
    bool hasTags() const { return m_kind != EntityChange::Entity::Subscription; }
    QString kindWord() const;

    BrokerService &m_service;
    EntityChange::Entity m_kind;
    QString m_name;
    AttributeForm *m_form = nullptr;
    TagEditor *m_tags = nullptr;
    ChangedElsewhereBanner *m_banner = nullptr;
    ApplyBar *m_bar = nullptr;
    AttributeMap m_current;   // the attributes as last loaded
    AttributeMap m_pending;   // loaded after a change elsewhere, not shown (banner up)
    TagEditor::Tags m_pendingTags;
    bool m_busy = false;
    bool m_gone = false;
    bool m_recheck = false;   // a change came while busy
    QString m_note;
};

} // namespace relaydesk
