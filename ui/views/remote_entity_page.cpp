// SPDX-License-Identifier: MIT
#include "views/remote_entity_page.h"

#include "connections/broker_connection.h"
#include "dialogs/confirm_name_dialog.h"
#include "views/remote_clock_bar.h"
#include "views/remote_deliveries_panel.h"
#include "views/remote_messages_panel.h"
#include "views/remote_subscriptions_panel.h"
#include "widgets/connection_call_bar.h"

#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace relaydesk {

namespace {

EntityRef refOf(const RemoteEntity &entity)
{
    return EntityRef{static_cast<EntityKind>(entity.kind), entity.name, entity.address, entity.parent};
}

} // namespace

QLabel *errorLabel(const QString &objectName, QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setStyleSheet(QStringLiteral("color: #c62828"));
    label->hide();
    return label;
}

void showConnectionError(QLabel *label, const QString &text)
{
    label->setText(text);
    label->setToolTip(text);   // whole even where a small window cuts the label (800×600 at a 1.5× font)
    label->setAccessibleName(text.isEmpty() ? QString() : QObject::tr("Error: %1").arg(text));
    label->setVisible(!text.isEmpty());
}

void offerAction(QWidget *action, bool offered, const QString &reason)
{
    action->setEnabled(offered);
    action->setToolTip(offered ? QString() : reason);
    action->setAccessibleDescription(offered ? QString() : reason);
}

RemoteEntityPage::RemoteEntityPage(BrokerConnection *connection, RemoteEntity entity, QString connectionName,
                                   bool production, QWidget *parent)
    : QWidget(parent), m_connection(connection), m_entity(std::move(entity)), m_production(production)
{
    setObjectName(QStringLiteral("remoteEntityPage"));
    auto *title = new QLabel(tr("<b>%1 %2</b> — %3%4")
                                 .arg(remoteKindWord(m_entity.kind), m_entity.name.toHtmlEscaped(),
                                      connectionName.toHtmlEscaped(),
                                      production ? tr(" <span style='color:#c62828'>(production)</span>") : QString()),
                             this);
    title->setObjectName(QStringLiteral("remoteTitle"));
    title->setAccessibleName(tr("%1 %2 of %3%4")
                                 .arg(remoteKindWord(m_entity.kind), m_entity.name, connectionName,
                                      production ? tr(", production") : QString()));
    auto *address = new QLabel(m_entity.address, this);
    address->setTextInteractionFlags(Qt::TextSelectableByMouse);
    address->setToolTip(m_entity.address);   // an ARN or URL has no place to wrap: a narrow page cuts it
    address->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_callBar = new ConnectionCallBar(this);
    connect(m_callBar, &ConnectionCallBar::idle, this, [this] { setBusy(false); });

    // Send or publish, purge, delete; their errors under them.
    m_body = new QPlainTextEdit(this);
    m_body->setObjectName(QStringLiteral("remoteBody"));
    m_body->setAccessibleName(tr("Message body"));
    m_body->setPlaceholderText(tr("The message body to send"));
    m_body->setMaximumHeight(fontMetrics().height() * 5);
    m_send = new QPushButton(m_entity.isTopic() ? tr("&Publish") : tr("&Send"), this);
    m_send->setObjectName(QStringLiteral("remoteSend"));
    m_purge = new QPushButton(tr("P&urge…"), this);
    m_purge->setObjectName(QStringLiteral("remotePurge"));
    m_delete = new QPushButton(tr("&Delete…"), this);
    m_delete->setObjectName(QStringLiteral("remoteDelete"));
    m_move = new QPushButton(tr("&Move messages…"), this);
    m_move->setObjectName(QStringLiteral("remoteMove"));
    m_move->setToolTip(tr("Move this dead-letter queue's messages back to the queues they came from"));
    m_moveStatus = new QLabel(this);
    m_moveStatus->setObjectName(QStringLiteral("remoteMoveStatus"));
    m_moveStatus->hide();
    m_actionError = errorLabel(QStringLiteral("remoteActionError"), this);
    connect(m_move, &QPushButton::clicked, this, &RemoteEntityPage::moveMessages);
    connect(m_send, &QPushButton::clicked, this, &RemoteEntityPage::sendBody);
    connect(m_purge, &QPushButton::clicked, this, &RemoteEntityPage::purge);
    connect(m_delete, &QPushButton::clicked, this, &RemoteEntityPage::deleteEntity);
    auto *actions = new QHBoxLayout;
    actions->addWidget(m_send);
    actions->addWidget(m_purge);
    actions->addWidget(m_delete);
    actions->addWidget(m_move);
    m_move->setVisible(!m_entity.isTopic());
    actions->addStretch(1);

    // Attributes.
    auto *attributeBox = new QWidget(this);
    m_attributes = new QTableWidget(0, 2, attributeBox);
    m_attributes->setObjectName(QStringLiteral("remoteAttributes"));
    m_attributes->setAccessibleName(tr("Attributes"));
    m_attributes->setHorizontalHeaderLabels({tr("Attribute"), tr("Value")});
    m_attributes->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);   // names whole
    m_attributes->horizontalHeader()->setStretchLastSection(true);
    m_attributes->verticalHeader()->hide();
    m_apply = new QPushButton(tr("&Apply"), attributeBox);
    m_apply->setObjectName(QStringLiteral("remoteApply"));
    m_attributeError = errorLabel(QStringLiteral("remoteAttributeError"), attributeBox);
    connect(m_apply, &QPushButton::clicked, this, &RemoteEntityPage::applyAttributes);
    auto *attributeLayout = new QVBoxLayout(attributeBox);
    attributeLayout->addWidget(m_attributes);
    auto *applyRow = new QHBoxLayout;
    applyRow->addWidget(m_apply);
    applyRow->addWidget(m_attributeError, 1);
    attributeLayout->addLayout(applyRow);

    m_messages = new RemoteMessagesPanel(connection, m_entity, m_callBar, this);
    connect(m_messages, &RemoteMessagesPanel::busyChanged, this, &RemoteEntityPage::setBusy);

    if (m_entity.isTopic()) {
        m_subscriptions = new RemoteSubscriptionsPanel(connection, m_entity, m_callBar, this);
        connect(m_subscriptions, &RemoteSubscriptionsPanel::busyChanged, this, &RemoteEntityPage::setBusy);
        if (connection->capability(EntityKind::Subscription, ConnectionFeature::AttemptLog).offered) {
            m_deliveries = new RemoteDeliveriesPanel(connection, m_callBar, this);
            connect(m_deliveries, &RemoteDeliveriesPanel::busyChanged, this, &RemoteEntityPage::setBusy);
            QTableWidget *subscriptions = m_subscriptions->table();
            connect(subscriptions, &QTableWidget::currentCellChanged, this, [this, subscriptions](int row) {
                const QTableWidgetItem *name = row >= 0 ? subscriptions->item(row, 0) : nullptr;
                const QString arn = name ? name->data(Qt::UserRole).toString() : QString();
                if (arn.startsWith(QLatin1String("arn:")))   // not "PendingConfirmation"
                    m_deliveries->showSubscription({EntityKind::Subscription, name->text(), arn, m_entity.address});
            });
        }
    }
    if (connection->capability(static_cast<EntityKind>(m_entity.kind), ConnectionFeature::Clock).offered) {
        m_clock = new RemoteClockBar(connection, m_callBar, this);
        connect(m_clock, &RemoteClockBar::busyChanged, this, &RemoteEntityPage::setBusy);
    }

    // The parts below the actions are tabs, as on This computer's pages: a
    // queue's Messages; a topic's Subscriptions and, where the connection
    // keeps an attempt log, the chosen subscription's Deliveries; then
    // Attributes — so a small window at a large font keeps each part whole.
    m_parts = new QTabWidget(this);
    m_parts->setObjectName(QStringLiteral("remoteParts"));
    m_parts->setAccessibleName(tr("Parts of %1").arg(m_entity.name));
    // A panel is a tab's whole page: the tab names it, no frame of its own.
    const auto addPart = [this](QGroupBox *panel, const QString &name) {
        panel->setTitle(QString());
        panel->setFlat(true);
        panel->layout()->setContentsMargins(0, 0, 0, 0);
        m_parts->addTab(panel, name);
    };
    if (m_subscriptions) {   // a topic keeps no messages: its subscriptions take the place
        m_messages->hide();
        addPart(m_subscriptions, tr("Subscriptions"));
        if (m_deliveries)
            addPart(m_deliveries, tr("Deliveries"));
    } else {
        addPart(m_messages, tr("Messages"));
    }
    m_parts->addTab(attributeBox, tr("Attributes"));

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(title);
    layout->addWidget(address);
    if (m_clock)
        layout->addWidget(m_clock);
    layout->addWidget(m_callBar);
    layout->addWidget(m_body);
    layout->addLayout(actions);
    layout->addWidget(m_actionError);
    layout->addWidget(m_moveStatus);
    layout->addWidget(m_parts, 1);

    setBusy(false);
    loadAttributes();
}

// A call in flight answers "Cancelled" now, while the page is whole, never after.
RemoteEntityPage::~RemoteEntityPage() { m_callBar->cancel(); }

void RemoteEntityPage::setBusy(bool busy)
{
    const EntityKind kind = static_cast<EntityKind>(m_entity.kind);
    const auto offer = [&](QWidget *action, ConnectionFeature feature) {
        const Capability capability = m_connection->capability(kind, feature);
        offerAction(action, capability.offered && !busy, capability.reason);
    };
    offer(m_send, ConnectionFeature::Send);
    offer(m_purge, ConnectionFeature::Purge);
    offer(m_delete, ConnectionFeature::Delete);
    offer(m_apply, ConnectionFeature::Attributes);
    const Capability moves = m_connection->moves(kind);
    offerAction(m_move, moves.offered && !busy, moves.reason);
    m_messages->setBusy(busy);
    if (m_clock)
        m_clock->setBusy(busy);
    if (m_subscriptions)
        m_subscriptions->setBusy(busy);
}

void RemoteEntityPage::loadAttributes()
{
    setBusy(true);
    ConnectionCall *call = m_connection->attributes(refOf(m_entity), [this](ConnectionResult<EntityAttributes> result) {
        showConnectionError(m_attributeError, result.ok ? QString() : result.error.text());
        if (!result.ok)
            return;
        const bool editable = m_connection->capability(static_cast<EntityKind>(m_entity.kind), ConnectionFeature::Attributes).offered;
        m_attributes->setRowCount(0);
        for (auto it = result.value.cbegin(); it != result.value.cend(); ++it) {
            const int row = m_attributes->rowCount();
            m_attributes->insertRow(row);
            auto *name = new QTableWidgetItem(it.key());
            name->setFlags(name->flags() & ~Qt::ItemIsEditable);
            auto *value = new QTableWidgetItem(it.value());
            value->setData(Qt::UserRole, it.value());   // as read: Apply sends what differs
            if (!editable)
                value->setFlags(value->flags() & ~Qt::ItemIsEditable);
            m_attributes->setItem(row, 0, name);
            m_attributes->setItem(row, 1, value);
        }
    });
    m_callBar->track(call, tr("Reading the attributes of %1…").arg(m_entity.name));
}

void RemoteEntityPage::applyAttributes()
{
    EntityAttributes changes;
    for (int row = 0; row < m_attributes->rowCount(); ++row) {
        const QTableWidgetItem *value = m_attributes->item(row, 1);
        if (value->text() != value->data(Qt::UserRole).toString())
            changes.insert(m_attributes->item(row, 0)->text(), value->text());
    }
    if (changes.isEmpty())
        return;
    setBusy(true);
    ConnectionCall *call = m_connection->setAttributes(refOf(m_entity), changes, [this](ConnectionResult<Done> result) {
        showConnectionError(m_attributeError, result.ok ? QString() : result.error.text());
        if (result.ok)
            QMetaObject::invokeMethod(this, &RemoteEntityPage::loadAttributes, Qt::QueuedConnection);
    });
    m_callBar->track(call, tr("Setting attributes of %1…").arg(m_entity.name));
}

void RemoteEntityPage::sendBody()
{
    OutgoingMessage message;
    message.body = m_body->toPlainText();
    setBusy(true);
    ConnectionCall *call = m_connection->send(refOf(m_entity), message, [this](ConnectionResult<QString> result) {
        showConnectionError(m_actionError, result.ok ? QString() : result.error.text());
        if (result.ok)
            m_body->clear();
    });
    m_callBar->track(call, m_entity.isTopic() ? tr("Publishing to %1…").arg(m_entity.name)
                                              : tr("Sending to %1…").arg(m_entity.name));
}

void RemoteEntityPage::confirmThen(const QString &question, const QString &action, std::function<void()> run)
{
    auto *dialog = new ConfirmNameDialog(question, action, m_entity.name, m_production, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, std::move(run));
    dialog->open();
}

void RemoteEntityPage::purge()
{
    confirmThen(tr("Purge every message of %1 %2?").arg(remoteKindWord(m_entity.kind).toLower(), m_entity.name),
                tr("Purge"), [this] {
                    setBusy(true);
                    ConnectionCall *call = m_connection->purge(refOf(m_entity), [this](ConnectionResult<Done> result) {
                        showConnectionError(m_actionError, result.ok ? QString() : result.error.text());
                    });
                    m_callBar->track(call, tr("Purging %1…").arg(m_entity.name));
                });
}

void RemoteEntityPage::deleteEntity()
{
    confirmThen(tr("Delete %1 %2 and its messages?").arg(remoteKindWord(m_entity.kind).toLower(), m_entity.name),
                tr("Delete"), [this] {
                    setBusy(true);
                    ConnectionCall *call = m_connection->deleteEntity(refOf(m_entity), [this](ConnectionResult<Done> result) {
                        showConnectionError(m_actionError, result.ok ? QString() : result.error.text());
                        if (result.ok)
                            emit entityDeleted();
                    });
                    m_callBar->track(call, tr("Deleting %1…").arg(m_entity.name));
                });
}

void RemoteEntityPage::moveMessages()
{
    confirmThen(tr("Move every message of dead-letter queue %1 back to the queue it came from?").arg(m_entity.name),
                tr("Move"), [this] {
                    setBusy(true);
                    ConnectionCall *call = m_connection->moveMessages(refOf(m_entity), {}, [this](ConnectionResult<QString> result) {
                        showConnectionError(m_actionError, result.ok ? QString() : result.error.text());
                        if (result.ok)
                            QMetaObject::invokeMethod(this, &RemoteEntityPage::showMoves, Qt::QueuedConnection);
                    });
                    m_callBar->track(call, tr("Starting to move the messages of %1…").arg(m_entity.name));
                });
}

// The newest move task of the queue, as the service lists it (ListMessageMoveTasks).
void RemoteEntityPage::showMoves()
{
    setBusy(true);
    ConnectionCall *call = m_connection->messageMoves(refOf(m_entity), [this](ConnectionResult<std::vector<MessageMoveLine>> result) {
        showConnectionError(m_actionError, result.ok ? QString() : result.error.text());
        if (!result.ok || result.value.empty())
            return;
        const MessageMoveLine &task = result.value.front();
        QString text = tr("Move task %1: %n message(s) moved", nullptr, static_cast<int>(task.moved)).arg(task.status);
        if (task.toMove)
            text += tr(" of %1").arg(*task.toMove);
        if (!task.failureReason.isEmpty())
            text += QStringLiteral(" — ") + task.failureReason;
        m_moveStatus->setText(text);
        m_moveStatus->setAccessibleName(text);
        m_moveStatus->show();
    });
    m_callBar->track(call, tr("Reading the move tasks of %1…").arg(m_entity.name));
}

} // namespace relaydesk
