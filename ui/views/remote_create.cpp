// SPDX-License-Identifier: MIT
#include "views/remote_create.h"

#include "connections/broker_connection.h"
#include "models/remote_entity.h"

#include <QInputDialog>
#include <QMessageBox>
#include <QPointer>

namespace relaydesk {

void askAndCreateRemoteEntity(QWidget *parent, BrokerConnection *connection, EntityKind kind, std::function<void()> created)
{
    const QString word = remoteKindWord(static_cast<int>(kind));
    auto *dialog = new QInputDialog(parent);
    dialog->setObjectName(QStringLiteral("newRemoteEntityDialog"));
    dialog->setWindowTitle(QObject::tr("New %1 — %2").arg(word, connection->displayName()));
    dialog->setLabelText(QObject::tr("&Name:"));
    dialog->setOkButtonText(QObject::tr("C&reate"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(dialog, &QInputDialog::textValueSelected, parent,
                     [parent = QPointer<QWidget>(parent), connection = QPointer<BrokerConnection>(connection), kind, word,
                      created](const QString &text) {
                         if (!connection)
                             return;   // the registry replaced its connections meanwhile
                         connection->createEntity(kind, text.trimmed(), {}, {}, [parent, word, created](ConnectionResult<EntityRef> result) {
                             if (result.ok)
                                 return created();
                             auto *box = new QMessageBox(QMessageBox::Warning, QObject::tr("Not created"),
                                                         QObject::tr("The %1 was not created: %2").arg(word, result.error.text()),
                                                         QMessageBox::Ok, parent);
                             box->setObjectName(QStringLiteral("remoteCreateError"));
                             box->setAttribute(Qt::WA_DeleteOnClose);
                             box->open();
                         });
                     });
    dialog->open();
}

} // namespace relaydesk
