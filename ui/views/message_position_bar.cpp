// SPDX-License-Identifier: MIT
#include "views/message_position_bar.h"

#include "models/message_browse_model.h"

#include <QAction>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QScrollBar>
#include <QTableView>
#include <QToolButton>

namespace relaydesk {

MessagePositionBar::MessagePositionBar(MessageBrowseModel *model, QTableView *table, QWidget *scope, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_table(table)
{
    m_position = new QLabel(this);
    m_position->setObjectName(QStringLiteral("messagePosition"));
    m_position->setTextFormat(Qt::PlainText);
    const auto action = [scope](const QString &text, const char *name, const QKeySequence &key, const QString &tip) {
        auto *made = new QAction(text, scope);
        made->setObjectName(QLatin1String(name));
        made->setShortcut(key);
        made->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        made->setToolTip(tip + QStringLiteral(" (%1)").arg(key.toString(QKeySequence::NativeText)));
        scope->addAction(made);
        return made;
    };
    m_start = action(tr("Start of Queue"), "startOfQueue", QKeySequence(Qt::CTRL | Qt::Key_Home),
                     tr("The first messages of the queue"));
    m_end = action(tr("End of Queue"), "endOfQueue", QKeySequence(Qt::CTRL | Qt::Key_End),
                   tr("The last messages of the queue, without loading those before"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_position);
    for (QAction *shown : {m_start, m_end}) {
        auto *button = new QToolButton(this);
        button->setDefaultAction(shown);
        button->setObjectName(shown->objectName() + QStringLiteral("Button"));
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        button->setFocusPolicy(Qt::StrongFocus);
        button->setAccessibleName(shown->text());
        layout->addWidget(button);
    }

    connect(m_end, &QAction::triggered, this, [this] {
        m_selectLast = true;
        m_model->jumpToEnd();
    });
    connect(m_start, &QAction::triggered, this, [this] {
        m_selectFirst = true;
        if (m_model->atTail())
            m_model->restart();
        else
            selectRow(0);
    });
    connect(m_model, &MessageBrowseModel::loaded, this, [this] {
        if (std::exchange(m_selectLast, false))
            selectRow(m_model->rowCount() - 1);
        if (m_selectFirst && !m_model->atTail() && m_model->rowCount() > 0) {
            m_selectFirst = false;
            selectRow(0);
        }
        update();
    });
    // Rows put above keep the view where it was; at the top, the page before is read.
    connect(m_model, &MessageBrowseModel::rowsPrepended, this, [this](int count) {
        m_table->scrollTo(m_model->index(count, 0), QAbstractItemView::PositionAtTop);
    });
    connect(m_table->verticalScrollBar(), &QScrollBar::valueChanged, this, [this](int value) {
        if (value == m_table->verticalScrollBar()->minimum() && m_model->canFetchEarlier())
            m_model->fetchEarlier();
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &MessagePositionBar::update);
    connect(m_model, &QAbstractItemModel::modelReset, this, &MessagePositionBar::update);
    update();
}

void MessagePositionBar::selectRow(int row)
{
    if (row < 0 || row >= m_model->rowCount())
        return;
    const QModelIndex index = m_model->index(row, 0);
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
}

void MessagePositionBar::update()
{
    const QLocale locale;
    const int row = m_table->currentIndex().row();
    const bool searching = !m_model->search().isEmpty();
    m_end->setEnabled(!searching);
    m_start->setEnabled(m_model->atTail() || row > 0);
    if (searching) {
        m_position->setText(row < 0 ? QString() : tr("Row %1 of %2 found so far")
                                                      .arg(locale.toString(row + 1), locale.toString(m_model->rowCount())));
        return;
    }
    const qint64 total = std::max<qint64>(m_model->queueTotal(), m_model->rowCount());
    m_position->setText(row < 0 ? tr("%1 in the queue").arg(locale.toString(total))
                                : tr("Row %1 of %2").arg(locale.toString(m_model->positionOf(row)), locale.toString(total)));
}

} // namespace relaydesk
