// SPDX-License-Identifier: MIT
#pragma once

#include "broker/deliveries/message_timeline.h"

#include <QWidget>

#include <optional>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace relaydesk {

// One message's timeline on one subscription (the Deliveries page):
// how its last delivery ended in words ("Dead-lettered to orders-dlq after 51
// attempts"), then each delivery (the publish's, and every redelivery) with
// its attempts against the plan — planned time, actual start, jitter (actual −
// planned), throttle wait, status, outcome. "Show dead-letter queue" and
// "Redeliver" ask the page to act. Thread: GUI; owns its widgets.
class MessageTimelinePanel final : public QWidget {
    Q_OBJECT
public:
    explicit MessageTimelinePanel(QWidget *parent = nullptr);

    void showTimeline(const MessageTimeline &timeline);
    // "Pick an attempt…" or a failure in words.
    void showMessage(const QString &text);
    const std::optional<MessageTimeline> &timeline() const { return m_timeline; }

    // Words for how a delivery ended ("Delivered after 4 attempts", …).
    static QString endText(const DeliveryTimeline &delivery);

    QLabel *summaryLabel() const { return m_summary; }
    QTreeWidget *attemptTree() const { return m_tree; }
    QPushButton *deadLetterButton() const { return m_deadLetter; }
    QPushButton *redeliverButton() const { return m_redeliver; }

signals:
    void deadLetterQueueRequested(const QString &queueName);
    void redeliverRequested(const QString &subscriptionArn, const QString &messageId);

private:
    QLabel *m_title = nullptr;
    QLabel *m_summary = nullptr;
    QTreeWidget *m_tree = nullptr;
    QPushButton *m_deadLetter = nullptr;
    QPushButton *m_redeliver = nullptr;
    std::optional<MessageTimeline> m_timeline;
};

} // namespace relaydesk
