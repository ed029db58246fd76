// SPDX-License-Identifier: MIT
#include "views/remote_mocks_window.h"

#include "connections/broker_connection.h"
#include "dialogs/confirm_name_dialog.h"
#include "views/remote_deliveries_panel.h"
#include "views/remote_messages_panel.h"
#include "widgets/connection_call_bar.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <utility>

namespace relaydesk {

RemoteMocksWindow::RemoteMocksWindow(BrokerConnection *connection, const QString &connectionName, bool production,
                                     QWidget *parent)
    : QDialog(parent), m_connection(connection), m_production(production)
{
    connect(connection, &QObject::destroyed, this, &QWidget::close);   // the connection was edited or removed
    setObjectName(QStringLiteral("remoteMocksWindow"));
    setWindowTitle(tr("Mock Endpoints — %1%2").arg(connectionName, production ? tr(" — PRODUCTION") : QString()));
    m_endpoints = readOnlyTable(QStringLiteral("remoteMockTable"), tr("Mock endpoints"),
                                {tr("Name"), tr("URL"), tr("Script"), tr("Requests")}, this);
    m_requests = readOnlyTable(QStringLiteral("remoteMockRequestTable"), tr("Requests"),
                               {tr("Received"), tr("Method"), tr("Target"), tr("Answer")}, this);
    // One line a row; the URL and the target take what the short columns leave.
    for (auto [table, wide] : {std::pair{m_endpoints, 1}, std::pair{m_requests, 2}}) {
        table->setWordWrap(false);
        table->horizontalHeader()->setStretchLastSection(false);
        table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
        table->horizontalHeader()->setSectionResizeMode(wide, QHeaderView::Stretch);
    }
    m_body = new QPlainTextEdit(this);
    m_body->setObjectName(QStringLiteral("remoteMockRequestBody"));
    m_body->setAccessibleName(tr("Request body"));
    m_body->setReadOnly(true);
    m_body->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_body->setPlaceholderText(tr("Choose a request to see its body"));

    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("remoteMockName"));
    m_name->setAccessibleName(tr("Name"));
    m_script = new QLineEdit(this);
    m_script->setObjectName(QStringLiteral("remoteMockScript"));
    m_script->setAccessibleName(tr("Script"));
    m_script->setPlaceholderText(tr("e.g. 503 x 2, then 200"));
    m_set = new QPushButton(tr("&Set Script"), this);
    m_set->setObjectName(QStringLiteral("remoteMockSet"));
    m_set->setToolTip(tr("Make the mock, or give it this script (it starts afresh)"));
    m_delete = new QPushButton(tr("&Delete…"), this);
    m_delete->setObjectName(QStringLiteral("remoteMockDelete"));
    m_clear = new QPushButton(tr("C&lear Requests"), this);
    m_clear->setObjectName(QStringLiteral("remoteMockClear"));
    m_refresh = new QPushButton(tr("&Refresh"), this);
    m_refresh->setObjectName(QStringLiteral("remoteMockRefresh"));
    m_refresh->setToolTip(tr("Read the mocks and their requests again (F5)"));
    m_error = errorLabel(QStringLiteral("remoteMocksError"), this);
    m_callBar = new ConnectionCallBar(this);

    auto *form = new QFormLayout;
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("S&cript:"), m_script);
    auto *actions = new QHBoxLayout;
    for (QPushButton *button : {m_set, m_delete, m_clear, m_refresh})
        actions->addWidget(button);
    actions->addStretch(1);
    auto *lower = new QSplitter(Qt::Horizontal, this);
    lower->addWidget(m_requests);
    lower->addWidget(m_body);
    lower->setStretchFactor(0, 3);
    lower->setStretchFactor(1, 2);
    auto *parts = new QSplitter(Qt::Vertical, this);
    parts->addWidget(m_endpoints);
    parts->addWidget(lower);
    auto *close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(parts, 1);
    layout->addLayout(form);
    layout->addLayout(actions);
    layout->addWidget(m_error);
    layout->addWidget(m_callBar);
    layout->addWidget(close);
    resize(760, 560);

    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_set, &QPushButton::clicked, this, &RemoteMocksWindow::setScript);
    connect(m_delete, &QPushButton::clicked, this, &RemoteMocksWindow::confirmDelete);
    connect(m_clear, &QPushButton::clicked, this, &RemoteMocksWindow::clearRequests);
    connect(m_refresh, &QPushButton::clicked, this, &RemoteMocksWindow::refresh);
    connect(new QShortcut(QKeySequence::Refresh, this), &QShortcut::activated, this, &RemoteMocksWindow::refresh);
    connect(m_name, &QLineEdit::textChanged, this, &RemoteMocksWindow::updateButtons);
    connect(m_script, &QLineEdit::textChanged, this, &RemoteMocksWindow::updateButtons);
    connect(m_callBar, &ConnectionCallBar::idle, this, &RemoteMocksWindow::updateButtons);
    connect(m_endpoints, &QTableWidget::currentCellChanged, this, [this](int row) {
        if (row < 0 || !m_endpoints->item(row, 0))
            return;
        m_name->setText(m_endpoints->item(row, 0)->text());
        m_script->setText(m_endpoints->item(row, 2)->text());
        readRequests();
    });
    connect(m_requests, &QTableWidget::currentCellChanged, this,
            [this](int row) { m_body->setPlainText(row >= 0 && row < m_bodies.size() ? m_bodies[row] : QString()); });
    updateButtons();
    refresh();
}

QString RemoteMocksWindow::selectedName() const
{
    const QTableWidgetItem *name = m_endpoints->currentRow() >= 0 ? m_endpoints->item(m_endpoints->currentRow(), 0) : nullptr;
    return name ? name->text() : QString();
}

void RemoteMocksWindow::updateButtons()
{
    const bool idle = !m_callBar->busy();
    const bool listed = !m_endpoints->findItems(m_name->text(), Qt::MatchExactly).isEmpty();
    m_set->setEnabled(idle && !m_name->text().trimmed().isEmpty() && !m_script->text().trimmed().isEmpty());
    m_delete->setEnabled(idle && listed);
    m_clear->setEnabled(idle && listed);
    m_refresh->setEnabled(idle);
}

void RemoteMocksWindow::refresh()
{
    const QString keep = selectedName().isEmpty() ? m_name->text() : selectedName();
    ConnectionCall *call = m_connection->mockEndpoints([this, keep](ConnectionResult<std::vector<MockEndpointLine>> result) {
        showConnectionError(m_error, result.ok ? QString() : result.error.text());
        if (!result.ok)
            return;
        {
            const QSignalBlocker quiet(m_endpoints);   // the row is chosen again below, once
            m_endpoints->setRowCount(static_cast<int>(result.value.size()));
            for (int row = 0; row < m_endpoints->rowCount(); ++row) {
                const MockEndpointLine &mock = result.value[static_cast<std::size_t>(row)];
                setRowTexts(m_endpoints, row, {mock.name, mock.url, mock.script, QString::number(mock.requestCount)});
            }
            m_endpoints->setCurrentCell(-1, -1);
        }
        if (!keep.isEmpty() && selectEndpoint(keep))
            return;
        m_requests->setRowCount(0);
        m_bodies.clear();
        m_body->clear();
        updateButtons();
    });
    m_callBar->track(call, tr("Reading the mock endpoints…"));
    updateButtons();
}

bool RemoteMocksWindow::selectEndpoint(const QString &name)
{
    const QList<QTableWidgetItem *> found = m_endpoints->findItems(name, Qt::MatchExactly);
    for (QTableWidgetItem *item : found)
        if (item->column() == 0) {
            if (m_endpoints->currentRow() == item->row() && !m_callBar->busy())
                readRequests();
            else
                m_endpoints->setCurrentCell(item->row(), 0);   // reads its requests
            return true;
        }
    return false;
}

void RemoteMocksWindow::readRequests()
{
    const QString name = selectedName();
    if (name.isEmpty())
        return;
    // A read in flight (the list's) is answered first; this one follows it.
    if (m_callBar->busy()) {
        connect(m_callBar, &ConnectionCallBar::idle, this, [this] { readRequests(); }, Qt::SingleShotConnection);
        return;
    }
    ConnectionCall *call = m_connection->mockRequests(name, [this](ConnectionResult<std::vector<MockRequestLine>> result) {
        showConnectionError(m_error, result.ok ? QString() : result.error.text());
        m_requests->setRowCount(result.ok ? static_cast<int>(result.value.size()) : 0);
        m_bodies.clear();
        for (int row = 0; row < m_requests->rowCount(); ++row) {
            const MockRequestLine &request = result.value[static_cast<std::size_t>(row)];
            setRowTexts(m_requests, row, {request.received.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz")), request.method,
                                          request.target, request.answer});
            m_bodies << request.body;
        }
        m_body->clear();
        updateButtons();
    });
    m_callBar->track(call, tr("Reading the requests of %1…").arg(name));
    updateButtons();
}

void RemoteMocksWindow::setScript()
{
    const QString name = m_name->text().trimmed();
    ConnectionCall *call = m_connection->setMock(name, m_script->text().trimmed(), [this, name](ConnectionResult<Done> result) {
        showConnectionError(m_error, result.ok ? QString() : result.error.text());
        if (result.ok) {
            m_name->setText(name);
            QMetaObject::invokeMethod(this, &RemoteMocksWindow::refresh, Qt::QueuedConnection);
        }
    });
    m_callBar->track(call, tr("Setting the script of %1…").arg(name));
    updateButtons();
}

void RemoteMocksWindow::confirmDelete()
{
    const QString name = m_name->text();
    auto *dialog = new ConfirmNameDialog(tr("Delete mock endpoint %1? Deliveries to it will get 404.").arg(name), tr("Delete"),
                                         name, m_production, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, name] {
        ConnectionCall *call = m_connection->deleteMock(name, [this](ConnectionResult<Done> result) {
            showConnectionError(m_error, result.ok ? QString() : result.error.text());
            if (result.ok) {
                m_name->clear();
                m_script->clear();
                QMetaObject::invokeMethod(this, &RemoteMocksWindow::refresh, Qt::QueuedConnection);
            }
        });
        m_callBar->track(call, tr("Deleting %1…").arg(name));
        updateButtons();
    });
    dialog->open();
}

void RemoteMocksWindow::clearRequests()
{
    const QString name = m_name->text();
    ConnectionCall *call = m_connection->clearMockRequests(name, [this](ConnectionResult<Done> result) {
        showConnectionError(m_error, result.ok ? QString() : result.error.text());
        if (result.ok)
            QMetaObject::invokeMethod(this, &RemoteMocksWindow::refresh, Qt::QueuedConnection);
    });
    m_callBar->track(call, tr("Forgetting the requests of %1…").arg(name));
    updateButtons();
}

} // namespace relaydesk
