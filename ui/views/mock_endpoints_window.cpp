// SPDX-License-Identifier: MIT
#include "views/mock_endpoints_window.h"

#include "widgets/field_error.h"
#include "models/mock_endpoint_list_model.h"
#include "models/mock_request_list_model.h"
#include "mock/mock_endpoints.h"
#include "views/mock_request_viewer.h"

#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace relaydesk {

namespace {

QTableView *tableFor(QAbstractItemModel *model, const QString &objectName, const QString &accessibleName,
                     QWidget *parent)
{
    auto *table = new QTableView(parent);
    table->setObjectName(objectName);
    table->setAccessibleName(accessibleName);
    table->setModel(model);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setHighlightSections(false);
    table->setTabKeyNavigation(false);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 8);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    return table;
}

QLabel *heading(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setTextFormat(Qt::PlainText);
    QFont bold = label->font();
    bold.setBold(true);
    label->setFont(bold);
    return label;
}

} // namespace

MockEndpointsWindow::MockEndpointsWindow(MockEndpoints &mocks, const QString &endpointUrl, QWidget *parent)
    : QDialog(parent), m_mocks(mocks)
{
    setObjectName(QStringLiteral("mockEndpointsWindow"));
    setWindowTitle(tr("Mock Endpoints"));
    setModal(false);
    setSizeGripEnabled(true);
    m_endpoints = new MockEndpointListModel(endpointUrl, this);
    m_requests = new MockRequestListModel(this);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->setChildrenCollapsible(false);
    auto *top = new QWidget(split);
    buildEndpointPart(top);
    auto *bottom = new QWidget(split);
    buildRequestPart(bottom);
    split->addWidget(top);
    split->addWidget(bottom);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("mockStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(split, 1);
    layout->addWidget(m_status);

    m_follow = new QTimer(this);
    m_follow->setInterval(kFollowIntervalMs);
    connect(m_follow, &QTimer::timeout, this, &MockEndpointsWindow::refresh);
    resize(1000, 720);
    refresh();
    onEndpointSelected();
}

MockEndpointsWindow::~MockEndpointsWindow() = default;

void MockEndpointsWindow::buildEndpointPart(QWidget *part)
{
    m_endpointTable = tableFor(m_endpoints, QStringLiteral("mockEndpointTable"), tr("Mock endpoints"), part);
    m_endpointTable->horizontalHeader()->setSectionResizeMode(MockEndpointListModel::UrlColumn, QHeaderView::Stretch);
    m_endpointTable->horizontalHeader()->setSectionResizeMode(MockEndpointListModel::ScriptColumn, QHeaderView::Stretch);
    m_endpointTable->setMinimumHeight(m_endpointTable->horizontalHeader()->sizeHint().height() +
                                      m_endpointTable->verticalHeader()->defaultSectionSize() * 4 + 4);
    connect(m_endpointTable->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &MockEndpointsWindow::onEndpointSelected);

    m_name = new QLineEdit(part);
    m_name->setObjectName(QStringLiteral("mockName"));
    m_name->setAccessibleName(tr("Name"));
    m_name->setPlaceholderText(tr("orders-webhook"));
    m_script = new QLineEdit(part);
    m_script->setObjectName(QStringLiteral("mockScript"));
    m_script->setAccessibleName(tr("Script"));
    m_script->setPlaceholderText(tr("503 x 3, then 200"));
    m_script->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_nameError = new FieldError(m_name, part);
    m_scriptError = new FieldError(m_script, part);
    auto *hint = new QLabel(tr("Steps in order, the last repeats: 200 · 503 x 5, then 200 · 429 always · "
                               "delay 1.5 s then 200 · hang 20 s · close x 2, 200. Saving starts the endpoint "
                               "afresh (first step, no requests)."),
                            part);
    hint->setTextFormat(Qt::PlainText);
    hint->setWordWrap(true);
    hint->setForegroundRole(QPalette::PlaceholderText);
    connect(m_name, &QLineEdit::textEdited, this, &MockEndpointsWindow::onNameEdited);
    connect(m_name, &QLineEdit::returnPressed, this, &MockEndpointsWindow::save);
    connect(m_script, &QLineEdit::returnPressed, this, &MockEndpointsWindow::save);
    connect(m_script, &QLineEdit::textEdited, m_scriptError, &FieldError::clearMessage);

    auto *form = new QFormLayout;
    auto *nameLabel = new QLabel(tr("&Name:"), part);
    nameLabel->setBuddy(m_name);
    auto *scriptLabel = new QLabel(tr("&Script:"), part);
    scriptLabel->setBuddy(m_script);
    auto *nameColumn = new QVBoxLayout;
    nameColumn->addWidget(m_name);
    nameColumn->addWidget(m_nameError);
    auto *scriptColumn = new QVBoxLayout;
    scriptColumn->addWidget(m_script);
    scriptColumn->addWidget(m_scriptError);
    scriptColumn->addWidget(hint);
    form->addRow(nameLabel, nameColumn);
    form->addRow(scriptLabel, scriptColumn);

    m_new = new QPushButton(tr("Ne&w"), part);
    m_new->setObjectName(QStringLiteral("newMock"));
    m_save = new QPushButton(tr("&Create"), part);
    m_save->setObjectName(QStringLiteral("saveMock"));
    m_save->setDefault(true);
    m_delete = new QPushButton(tr("&Delete…"), part);
    m_delete->setObjectName(QStringLiteral("deleteMock"));
    m_copyUrl = new QPushButton(tr("Copy &URL"), part);
    m_copyUrl->setObjectName(QStringLiteral("copyMockUrl"));
    connect(m_new, &QPushButton::clicked, this, [this] {
        m_endpointTable->clearSelection();
        m_name->clear();
        m_script->clear();
        m_name->setFocus(Qt::OtherFocusReason);
        onNameEdited();
    });
    connect(m_save, &QPushButton::clicked, this, &MockEndpointsWindow::save);
    connect(m_delete, &QPushButton::clicked, this, &MockEndpointsWindow::confirmDelete);
    connect(m_copyUrl, &QPushButton::clicked, this, [this] {
        const QString url = m_endpoints->urlOf(selectedEndpoint());
        QApplication::clipboard()->setText(url);
        say(tr("Copied %1").arg(url));
    });
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_save);
    buttons->addWidget(m_new);
    buttons->addWidget(m_delete);
    buttons->addStretch(1);
    buttons->addWidget(m_copyUrl);

    auto *layout = new QVBoxLayout(part);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(heading(tr("Endpoints"), part));
    layout->addWidget(m_endpointTable, 1);
    layout->addLayout(form);
    layout->addLayout(buttons);
}

void MockEndpointsWindow::buildRequestPart(QWidget *part)
{
    m_requestsTitle = heading(QString(), part);
    m_requestsTitle->setObjectName(QStringLiteral("requestsTitle"));
    m_clear = new QPushButton(tr("C&lear"), part);
    m_clear->setObjectName(QStringLiteral("clearRequests"));
    m_clear->setToolTip(tr("Forget the recorded requests; the script goes on where it was"));
    connect(m_clear, &QPushButton::clicked, this, &MockEndpointsWindow::clearRequests);
    m_requestTable = tableFor(m_requests, QStringLiteral("mockRequestTable"), tr("Requests received"), part);
    m_requestTable->horizontalHeader()->setSectionResizeMode(MockRequestListModel::TargetColumn, QHeaderView::Stretch);
    m_viewer = new MockRequestViewer(part);
    m_viewer->setObjectName(QStringLiteral("mockRequestViewer"));
    connect(m_requestTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                const MockRequest *request = m_requests->requestAt(current.row());
                m_viewer->showRequest(request ? std::optional<MockRequest>(*request) : std::nullopt);
            });
    connect(m_requests, &QAbstractItemModel::modelReset, this, [this] { m_viewer->showRequest(std::nullopt); });

    auto *top = new QHBoxLayout;
    top->addWidget(m_requestsTitle, 1);
    top->addWidget(m_clear);
    auto *split = new QSplitter(Qt::Horizontal, part);
    split->setChildrenCollapsible(false);
    split->addWidget(m_requestTable);
    split->addWidget(m_viewer);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(part);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(split, 1);
}

void MockEndpointsWindow::refresh()
{
    const std::uint64_t revision = m_mocks.revision();
    if (revision == m_seenRevision)
        return;
    m_seenRevision = revision;
    const QString selected = selectedEndpoint();
    m_endpoints->apply(m_mocks.list());
    if (selected == selectedEndpoint())
        showRequests(true);
    else
        onEndpointSelected(); // its endpoint was removed
}

bool MockEndpointsWindow::selectEndpoint(const QString &name)
{
    refresh();
    const int row = m_endpoints->rowOf(name);
    if (row < 0)
        return false;
    m_endpointTable->selectRow(row);
    m_endpointTable->scrollTo(m_endpoints->index(row, 0));
    return true;
}

QString MockEndpointsWindow::selectedEndpoint() const
{
    const QModelIndexList rows = m_endpointTable->selectionModel()->selectedRows();
    return rows.isEmpty() ? QString() : rows.front().data(MockEndpointListModel::NameRole).toString();
}

void MockEndpointsWindow::showEvent(QShowEvent *event)
{
    QDialog::showEvent(event);
    refresh();
    m_follow->start();
}

void MockEndpointsWindow::hideEvent(QHideEvent *event)
{
    m_follow->stop();
    QDialog::hideEvent(event);
}

void MockEndpointsWindow::onEndpointSelected()
{
    const QString name = selectedEndpoint();
    if (const MockEndpointSummary *endpoint = m_endpoints->endpointAt(m_endpoints->rowOf(name))) {
        m_name->setText(name);
        m_script->setText(QString::fromStdString(endpoint->script));
    }
    m_nameError->clearMessage();
    m_scriptError->clearMessage();
    onNameEdited();
    m_delete->setEnabled(!name.isEmpty());
    m_copyUrl->setEnabled(!name.isEmpty());
    m_requests->apply({});
    showRequests(true);
}

void MockEndpointsWindow::onNameEdited()
{
    m_nameError->clearMessage();
    const bool exists = m_endpoints->rowOf(m_name->text().trimmed()) >= 0;
    m_save->setText(exists ? tr("&Save Script") : tr("&Create"));
}

void MockEndpointsWindow::showRequests(bool reread)
{
    const QString name = selectedEndpoint();
    m_clear->setEnabled(!name.isEmpty());
    if (name.isEmpty()) {
        m_requests->apply({});
        m_requestsTitle->setText(tr("Requests (select an endpoint)"));
        return;
    }
    const MockEndpointSummary *endpoint = m_endpoints->endpointAt(m_endpoints->rowOf(name));
    if (reread) {
        QScrollBar *scroll = m_requestTable->verticalScrollBar();
        const bool atEnd = scroll->value() == scroll->maximum();
        auto received = m_mocks.received(name.toStdString());
        m_requests->apply(received ? *received : std::vector<MockRequest>{});
        if (atEnd)
            m_requestTable->scrollToBottom();
    }
    const std::uint64_t total = endpoint ? endpoint->requestCount : 0;
    const QLocale locale;
    QString title = tr("Requests to %1: %2 since its script was set").arg(name, locale.toString(total));
    if (static_cast<std::uint64_t>(m_requests->rowCount()) < total)
        title += tr(" · %1 kept").arg(locale.toString(m_requests->rowCount()));
    m_requestsTitle->setText(title);
}

void MockEndpointsWindow::save()
{
    const QString name = m_name->text().trimmed();
    const QString script = m_script->text();
    m_nameError->clearMessage();
    m_scriptError->clearMessage();
    const Status set = m_mocks.set(name.toStdString(), script.toStdString());
    if (!set) {
        const QString message = QString::fromStdString(set.error().message);
        (message.startsWith(QLatin1String("mock endpoint name")) ? m_nameError : m_scriptError)->setMessage(message);
        return;
    }
    const bool existed = m_endpoints->rowOf(name) >= 0;
    refresh();
    selectEndpoint(name);
    say(existed ? tr("%1 follows \"%2\" from its first step.").arg(name, script)
                : tr("Created %1: %2").arg(name, m_endpoints->urlOf(name)));
}

void MockEndpointsWindow::confirmDelete()
{
    const QString name = selectedEndpoint();
    if (name.isEmpty())
        return;
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Delete %1").arg(name), tr("Delete mock endpoint %1?").arg(name),
                                QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("deleteMockConfirmation"));
    box->setInformativeText(tr("Requests to %1 will be answered 404, and what it received is forgotten.")
                                .arg(m_endpoints->urlOf(name)));
    QPushButton *confirm = box->addButton(tr("&Delete"), QMessageBox::DestructiveRole);
    confirm->setObjectName(QStringLiteral("confirmDeleteMock"));
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::buttonClicked, this, [this, confirm, name](QAbstractButton *clicked) {
        if (clicked != confirm)
            return;
        say(m_mocks.remove(name.toStdString()) ? tr("Deleted %1").arg(name) : tr("%1 was already gone").arg(name));
        refresh();
        m_endpointTable->clearSelection(); // no neighbour is picked for the user
        m_name->clear();
        m_script->clear();
        onNameEdited();
    });
    box->open();
}

void MockEndpointsWindow::clearRequests()
{
    const QString name = selectedEndpoint();
    if (name.isEmpty())
        return;
    const Status cleared = m_mocks.clearReceived(name.toStdString());
    say(cleared ? tr("Cleared the requests of %1").arg(name) : QString::fromStdString(cleared.error().message));
    refresh();
}

void MockEndpointsWindow::say(const QString &message) { m_status->setText(message); }

} // namespace relaydesk
