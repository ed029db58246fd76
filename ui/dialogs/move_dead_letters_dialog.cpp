// SPDX-License-Identifier: MIT
#include "dialogs/move_dead_letters_dialog.h"

#include "engine/broker_engine.h"
#include "engine/broker_service.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace relaydesk {

namespace {

const std::string kCountAttributes[] = {"ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible",
                                        "ApproximateNumberOfMessagesDelayed"};

qint64 attributeNumber(const AttributeMap &attributes, const std::string &name)
{
    const auto found = attributes.find(name);
    return found == attributes.end() ? 0 : QString::fromStdString(found->second).toLongLong();
}

} // namespace

MoveDeadLettersDialog::MoveDeadLettersDialog(BrokerService &service, BrokerEngine &, const QString &deadLetterQueueName,
                                             QWidget *parent)
    : QDialog(parent), m_service(&service), m_queueName(deadLetterQueueName)
{
    setWindowTitle(tr("Move dead letters back from %1").arg(deadLetterQueueName));
    setObjectName(QStringLiteral("moveDeadLettersDialog"));
    m_summary = new QLabel(tr("Counting the messages in %1…").arg(deadLetterQueueName), this);
    m_summary->setObjectName(QStringLiteral("summary"));
    m_summary->setWordWrap(true);
    m_toSources = new QRadioButton(tr("Back to the queue each message &came from"), this);
    m_toSources->setObjectName(QStringLiteral("toSources"));
    m_toSources->setChecked(true);
    m_toQueue = new QRadioButton(tr("All to &this queue:"), this);
    m_toQueue->setObjectName(QStringLiteral("toQueue"));
    m_destination = new QComboBox(this);
    m_destination->setObjectName(QStringLiteral("destination"));
    m_destination->setAccessibleName(tr("Destination queue"));
    m_destination->setEnabled(false);
    connect(m_toQueue, &QRadioButton::toggled, m_destination, &QWidget::setEnabled);
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("progress"));
    m_progress->setAccessibleName(tr("Progress"));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(tr("%v of %m moved"));
    m_outcome = new QLabel(this);
    m_outcome->setObjectName(QStringLiteral("outcome"));
    m_outcome->setWordWrap(true);
    m_outcome->setTextFormat(Qt::PlainText);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Move"));
    m_buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("move"));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &MoveDeadLettersDialog::start);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &MoveDeadLettersDialog::reject);

    auto *destinationRow = new QHBoxLayout;
    destinationRow->addWidget(m_toQueue);
    destinationRow->addWidget(m_destination, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_toSources);
    layout->addLayout(destinationRow);
    layout->addWidget(m_progress);
    layout->addWidget(m_outcome);
    layout->addStretch();
    layout->addWidget(m_buttons);
    resize(520, 260);
    loadQueues();
}

MoveDeadLettersDialog::~MoveDeadLettersDialog() = default;

void MoveDeadLettersDialog::setDestination(const QString &queueName)
{
    if (queueName.isEmpty()) {
        m_toSources->setChecked(true);
        return;
    }
    m_toQueue->setChecked(true);
    m_destination->setCurrentText(queueName);
}

void MoveDeadLettersDialog::loadQueues()
{
    m_service->getQueueAttributes(
        m_queueName.toStdString(), {std::begin(kCountAttributes), std::end(kCountAttributes)}, this,
        [this](Result<AttributeMap> attributes) {
            if (!attributes)
                return fail(QString::fromStdString(attributes.error().message));
            m_count = 0;
            for (const std::string &name : kCountAttributes)
                m_count += attributeNumber(*attributes, name);
            m_summary->setText(tr("%1 holds %2 messages. Where should they go?")
                                   .arg(m_queueName, QLocale().toString(m_count)));
            m_progress->setRange(0, int(std::max<qint64>(m_count, 1)));
            m_buttons->button(QDialogButtonBox::Ok)->setEnabled(m_count > 0);
        });
    m_service->listQueues({}, std::nullopt, {}, this, [this](Result<QueuePage> page) {
        if (!page)
            return;
        const QString wanted = m_destination->currentText();
        for (const std::string &url : page->queueUrls) {
            const QString name = QString::fromStdString(url).section(QLatin1Char('/'), -1);
            if (name != m_queueName)
                m_destination->addItem(name);
        }
        if (!wanted.isEmpty())
            m_destination->setCurrentText(wanted);
    });
}

void MoveDeadLettersDialog::start()
{
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    m_outcome->clear();
    m_progress->setRange(0, 0);   // busy until the task reports
    const QString destination = m_toQueue->isChecked() ? m_destination->currentText() : QString();
    m_service->getQueueAttributes(m_queueName.toStdString(), {"QueueArn"}, this,
                                  [this, destination](Result<AttributeMap> source) {
                                      if (!source)
                                          return fail(QString::fromStdString(source.error().message));
                                      const QString sourceArn = QString::fromStdString(source->at("QueueArn"));
                                      if (destination.isEmpty())
                                          return startWith(sourceArn, {});
                                      m_service->getQueueAttributes(
                                          destination.toStdString(), {"QueueArn"}, this,
                                          [this, sourceArn](Result<AttributeMap> target) {
                                              if (!target)
                                                  return fail(QString::fromStdString(target.error().message));
                                              startWith(sourceArn, QString::fromStdString(target->at("QueueArn")));
                                          });
                                  });
}

void MoveDeadLettersDialog::startWith(const QString &sourceArn, const QString &destinationArn)
{
    std::optional<std::string> destination;
    if (!destinationArn.isEmpty())
        destination = destinationArn.toStdString();
    m_service->startMessageMoveTask(
        sourceArn.toStdString(), destination, std::nullopt, this, [this, sourceArn](Result<std::string> handle) {
            if (!handle)
                return fail(QString::fromStdString(handle.error().message));
            m_service->listMessageMoveTasks(
                sourceArn.toStdString(), 1, this, [this](Result<std::vector<MessageMoveTask>> tasks) {
                    if (!tasks || tasks->empty())
                        return fail(tasks ? tr("The move task was not recorded.")
                                          : QString::fromStdString(tasks.error().message));
                    const MessageMoveTask &task = tasks->front();
                    m_moved = task.approximateNumberOfMessagesMoved;
                    const qint64 toMove = std::max<qint64>(task.approximateNumberOfMessagesToMove, 1);
                    m_progress->setRange(0, int(toMove));
                    m_progress->setValue(int(std::min(m_moved, toMove)));
                    QString text = tr("Moved %1 of %2 messages.")
                                       .arg(QLocale().toString(m_moved),
                                            QLocale().toString(task.approximateNumberOfMessagesToMove));
                    if (task.failureReason)
                        text += QLatin1Char(' ')
                              + tr("Some stayed: %1 (their source queue no longer exists).")
                                    .arg(QString::fromStdString(*task.failureReason));
                    m_outcome->setText(text);
                    m_buttons->setStandardButtons(QDialogButtonBox::Close);
                    m_buttons->button(QDialogButtonBox::Close)->setObjectName(QStringLiteral("close"));
                    emit moveFinished(m_moved, task.approximateNumberOfMessagesToMove);
                });
        });
}

void MoveDeadLettersDialog::fail(const QString &message)
{
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_outcome->setText(message);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(true);
}

} // namespace relaydesk
