// SPDX-License-Identifier: MIT
#include "dialogs/move_dead_letters_dialog.h"

#include "engine/broker_engine.h"
#include "engine/broker_service.h"
#include "engine/entity_change.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QTimer>
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

constexpr int kPollMs = 250;

} // namespace

MoveDeadLettersDialog::MoveDeadLettersDialog(BrokerService &service, BrokerEngine &engine, const QString &deadLetterQueueName,
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
    m_rate = new QSpinBox(this);
    m_rate->setObjectName(QStringLiteral("rate"));
    m_rate->setRange(0, 500);
    m_rate->setSpecialValueText(tr("as fast as the broker can"));
    m_rate->setSuffix(tr(" messages per second"));
    m_rate->setToolTip(tr("MaxNumberOfMessagesPerSecond: the broker moves this many each second (clock time)."));
    auto *rateLabel = new QLabel(tr("&Rate:"), this);
    rateLabel->setBuddy(m_rate);
    m_rate->setAccessibleName(tr("Rate"));
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
    m_poll = new QTimer(this);
    m_poll->setInterval(kPollMs);
    connect(m_poll, &QTimer::timeout, this, &MoveDeadLettersDialog::refresh);
    connect(&engine, &BrokerEngine::changesPublished, this, &MoveDeadLettersDialog::onChanges);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Move"));
    m_buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("move"));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &MoveDeadLettersDialog::start);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &MoveDeadLettersDialog::reject);
    m_buttons->button(QDialogButtonBox::Cancel)->setObjectName(QStringLiteral("cancel"));

    auto *destinationRow = new QHBoxLayout;
    destinationRow->addWidget(m_toQueue);
    destinationRow->addWidget(m_destination, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_toSources);
    layout->addLayout(destinationRow);
    auto *rateRow = new QHBoxLayout;
    rateRow->addWidget(rateLabel);
    rateRow->addWidget(m_rate, 1);
    layout->addLayout(rateRow);
    layout->addWidget(m_progress);
    layout->addWidget(m_outcome);
    layout->addStretch();
    layout->addWidget(m_buttons);
    resize(560, 290);
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

void MoveDeadLettersDialog::setRate(int messagesPerSecond)
{
    m_rate->setValue(messagesPerSecond);
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
    for (QWidget *choice : {static_cast<QWidget *>(m_toSources), static_cast<QWidget *>(m_toQueue),
                            static_cast<QWidget *>(m_destination), static_cast<QWidget *>(m_rate)})
        choice->setEnabled(false);
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
    std::optional<std::int64_t> rate;
    if (m_rate->value() > 0)
        rate = m_rate->value();
    m_sourceArn = sourceArn;
    m_service->startMessageMoveTask(sourceArn.toStdString(), destination, rate, this,
                                    [this](Result<std::string> handle) {
                                        if (!handle)
                                            return fail(QString::fromStdString(handle.error().message));
                                        m_taskHandle = QString::fromStdString(*handle);
                                        m_status = QStringLiteral("RUNNING");
                                        m_moved = 0;
                                        m_buttons->button(QDialogButtonBox::Cancel)->setText(tr("&Stop moving"));
                                        m_poll->start();
                                        refresh();
                                    });
}

void MoveDeadLettersDialog::onChanges(const QList<EntityChange> &changes)
{
    if (m_status != QLatin1String("RUNNING"))
        return;
    for (const EntityChange &change : changes)
        if (change.entity == EntityChange::Entity::Queue && change.name == m_queueName)
            return refresh();
}

void MoveDeadLettersDialog::refresh()
{
    if (m_refreshing || m_status != QLatin1String("RUNNING"))
        return;
    m_refreshing = true;
    m_service->listMessageMoveTasks(m_sourceArn.toStdString(), 1, this,
                                    [this](Result<std::vector<MessageMoveTask>> tasks) {
                                        m_refreshing = false;
                                        if (m_status != QLatin1String("RUNNING"))
                                            return;   // stopped meanwhile: the cancel's answer said it all
                                        if (!tasks || tasks->empty())
                                            return fail(tasks ? tr("The move task was not recorded.")
                                                              : QString::fromStdString(tasks.error().message));
                                        showTask(tasks->front());
                                    });
}

void MoveDeadLettersDialog::showTask(const MessageMoveTask &task)
{
    const bool changed = task.approximateNumberOfMessagesMoved != m_moved;
    m_moved = task.approximateNumberOfMessagesMoved;
    m_toMove = task.approximateNumberOfMessagesToMove;
    m_progress->setRange(0, int(std::max<qint64>(m_toMove, 1)));
    m_progress->setValue(int(std::min(m_moved, std::max<qint64>(m_toMove, 1))));
    const QString counts = tr("%1 of %2 messages").arg(QLocale().toString(m_moved), QLocale().toString(m_toMove));
    if (task.status == "RUNNING") {
        m_outcome->setText(tr("Moving… %1 moved so far.").arg(counts));
        if (changed)
            emit progressed(m_moved, m_toMove);
        return;
    }
    m_status = QString::fromStdString(task.status);
    if (task.status == "CANCELLED")
        return end(tr("Stopped: %1 moved; the rest stay in %2.").arg(counts, m_queueName));
    QString text = tr("Moved %1.").arg(counts);
    if (task.failureReason)
        text += QLatin1Char(' ')
              + tr("Some stayed: %1 (their source queue no longer exists).").arg(QString::fromStdString(*task.failureReason));
    end(text);
}

void MoveDeadLettersDialog::reject()
{
    if (m_status == QLatin1String("RUNNING"))
        return stopMoving();
    QDialog::reject();
}

void MoveDeadLettersDialog::stopMoving()
{
    if (!m_taskHandle || m_stopping)
        return;
    m_stopping = true;
    m_buttons->button(QDialogButtonBox::Cancel)->setEnabled(false);
    m_service->cancelMessageMoveTask(m_taskHandle->toStdString(), this, [this](Result<std::int64_t> moved) {
        m_stopping = false;
        if (!moved)   // it ended meanwhile: show how
            return refresh();
        m_status = QStringLiteral("CANCELLED");
        m_moved = *moved;
        m_progress->setValue(int(std::min(m_moved, std::max<qint64>(m_toMove, 1))));
        end(tr("Stopped: %1 of %2 messages moved; the rest stay in %3.")
                .arg(QLocale().toString(m_moved), QLocale().toString(m_toMove), m_queueName));
    });
}

void MoveDeadLettersDialog::end(const QString &text)
{
    m_poll->stop();
    m_taskHandle.reset();
    m_outcome->setText(text);
    m_buttons->setStandardButtons(QDialogButtonBox::Close);
    m_buttons->button(QDialogButtonBox::Close)->setObjectName(QStringLiteral("close"));
    emit moveFinished(m_moved, m_toMove);
}

void MoveDeadLettersDialog::fail(const QString &message)
{
    m_poll->stop();
    m_status.clear();
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_outcome->setText(message);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(true);
    m_buttons->button(QDialogButtonBox::Cancel)->setText(tr("Cancel"));
    m_buttons->button(QDialogButtonBox::Cancel)->setEnabled(true);
    for (QWidget *choice : {static_cast<QWidget *>(m_toSources), static_cast<QWidget *>(m_toQueue),
                            static_cast<QWidget *>(m_rate)})
        choice->setEnabled(true);
    m_destination->setEnabled(m_toQueue->isChecked());
}

} // namespace relaydesk
