// SPDX-License-Identifier: MIT
#include "dialogs/database_problem_dialog.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QIcon>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace relaydesk {

namespace {

struct Words {
    QString headline;
    QString explanation;
};

Words wordsFor(const QString &file, const BrokerHostProblem &problem)
{
    using Kind = StoreStatus::Kind;
    if (problem.kind == BrokerHostProblem::Kind::Port)
        return {QObject::tr("The broker cannot listen on its port."),
                QObject::tr("Another program uses the port. Start Relaydesk with another --port, or close that program.")};
    if (problem.kind != BrokerHostProblem::Kind::Database)
        return {QObject::tr("The broker could not start."), QString()};
    switch (problem.storeKind) {
    case Kind::InUse:
    case Kind::Busy:
        return {QObject::tr("%1 is in use by another Relaydesk.").arg(file),
                QObject::tr("Only one broker can use a database at a time. Close the other Relaydesk window or "
                            "`relaydesk serve` that has it open, or open another database.")};
    case Kind::NotRelaydesk:
        return {QObject::tr("%1 is not a Relaydesk database.").arg(file),
                QObject::tr("It is not a SQLite file, or it belongs to another application. Relaydesk leaves it as "
                            "it is.")};
    case Kind::Corrupt:
        return {QObject::tr("%1 is damaged.").arg(file),
                QObject::tr("The file does not read back correctly. Relaydesk leaves it as it is; a copy may still be "
                            "examined with sqlite3.")};
    case Kind::NewerSchema:
        return {QObject::tr("%1 was written by a newer Relaydesk.").arg(file),
                QObject::tr("This version does not know its layout and will not change it. Open it with the newer "
                            "version, or open another database.")};
    case Kind::CannotOpen:
    case Kind::ReadOnly:
        return {QObject::tr("%1 cannot be opened.").arg(file),
                QObject::tr("The file or its folder cannot be read or written (permissions, or a missing drive).")};
    case Kind::DiskFull:
        return {QObject::tr("The disk holding %1 is full.").arg(file), QObject::tr("Free some space, or open another database.")};
    default:
        return {QObject::tr("%1 cannot be used.").arg(file), QString()};
    }
}

} // namespace

DatabaseProblemDialog::DatabaseProblemDialog(const QString &databasePath, const BrokerHostProblem &problem,
                                             QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("databaseProblemDialog"));
    setWindowTitle(tr("Relaydesk — database problem"));
    const Words words = wordsFor(QFileInfo(databasePath).fileName(), problem);
    auto *layout = new QVBoxLayout(this);
    auto *row = new QHBoxLayout;
    auto *icon = new QLabel(this);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(48, 48));
    icon->setAlignment(Qt::AlignTop);
    row->addWidget(icon);
    auto *texts = new QVBoxLayout;
    m_headline = new QLabel(words.headline, this);
    m_headline->setObjectName(QStringLiteral("problemHeadline"));
    m_headline->setTextFormat(Qt::PlainText);
    m_headline->setWordWrap(true);
    QFont bold = m_headline->font();
    bold.setBold(true);
    m_headline->setFont(bold);
    texts->addWidget(m_headline);
    m_explanation = new QLabel(words.explanation, this);
    m_explanation->setObjectName(QStringLiteral("problemExplanation"));
    m_explanation->setTextFormat(Qt::PlainText);
    m_explanation->setWordWrap(true);
    texts->addWidget(m_explanation);
    auto *detail = new QLabel(tr("File: %1\nDetails: %2").arg(databasePath, problem.message), this);
    detail->setObjectName(QStringLiteral("problemDetail"));
    detail->setTextFormat(Qt::PlainText);
    detail->setWordWrap(true);
    detail->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    detail->setForegroundRole(QPalette::PlaceholderText);
    texts->addWidget(detail);
    row->addLayout(texts, 1);
    layout->addLayout(row);

    auto *buttons = new QDialogButtonBox(this);
    QPushButton *open = buttons->addButton(tr("&Open Another Database…"), QDialogButtonBox::AcceptRole);
    open->setObjectName(QStringLiteral("openOtherButton"));
    QPushButton *create = buttons->addButton(tr("&Create New Database…"), QDialogButtonBox::AcceptRole);
    create->setObjectName(QStringLiteral("createNewButton"));
    QPushButton *without = buttons->addButton(tr("Continue &Without a Broker"), QDialogButtonBox::RejectRole);
    without->setObjectName(QStringLiteral("withoutBrokerButton"));
    connect(open, &QPushButton::clicked, this, [this] { done(OpenOther); });
    connect(create, &QPushButton::clicked, this, [this] { done(CreateNew); });
    connect(without, &QPushButton::clicked, this, &QDialog::reject);
    open->setDefault(true);
    layout->addWidget(buttons);
    setMinimumWidth(520);
}

QString DatabaseProblemDialog::headline() const { return m_headline->text(); }
QString DatabaseProblemDialog::explanation() const { return m_explanation->text(); }

} // namespace relaydesk
