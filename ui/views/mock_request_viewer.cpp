// SPDX-License-Identifier: MIT
#include "views/mock_request_viewer.h"

#include "models/message_text.h"
#include "models/mock_text.h"

#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

namespace relaydesk {

namespace {

QPlainTextEdit *monospaceText(const QString &objectName, const QString &accessibleName, QWidget *parent)
{
    auto *text = new QPlainTextEdit(parent); // plain text only
    text->setObjectName(objectName);
    text->setAccessibleName(accessibleName);
    text->setReadOnly(true);
    text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    text->setLineWrapMode(QPlainTextEdit::NoWrap);
    text->setTabChangesFocus(true);
    return text;
}

} // namespace

MockRequestViewer::MockRequestViewer(QWidget *parent) : QWidget(parent)
{
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("requestTitle"));
    m_title->setTextFormat(Qt::PlainText);
    m_title->setWordWrap(true);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_copyHeaders = new QPushButton(tr("Copy h&eaders"), this);
    m_copyHeaders->setObjectName(QStringLiteral("copyHeaders"));
    m_copyBody = new QPushButton(tr("Copy &body"), this);
    m_copyBody->setObjectName(QStringLiteral("copyRequestBody"));
    connect(m_copyHeaders, &QPushButton::clicked, this, [this] {
        if (m_request)
            QApplication::clipboard()->setText(mock_text::headersText(*m_request));
    });
    connect(m_copyBody, &QPushButton::clicked, this, [this] {
        if (m_request)
            QApplication::clipboard()->setText(QString::fromStdString(m_request->body));
    });
    m_headers = monospaceText(QStringLiteral("requestHeaders"), tr("Request headers"), this);
    m_body = monospaceText(QStringLiteral("requestBody"), tr("Request body"), this);

    auto *top = new QHBoxLayout;
    top->addWidget(m_title, 1);
    top->addWidget(m_copyHeaders);
    top->addWidget(m_copyBody);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->setChildrenCollapsible(false);
    split->addWidget(m_headers);
    split->addWidget(m_body);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(split, 1);
    showRequest(std::nullopt);
}

void MockRequestViewer::showRequest(const std::optional<MockRequest> &request)
{
    m_request = request;
    m_copyHeaders->setEnabled(request.has_value());
    m_copyBody->setEnabled(request.has_value() && !request->body.empty());
    if (!request) {
        m_title->setText(tr("Select a request to see its headers and body."));
        m_headers->clear();
        m_body->clear();
        return;
    }
    m_title->setText(tr("#%1 · %2 · %3 · answered %4")
                         .arg(request->number)
                         .arg(mock_text::requestLine(*request), message_text::timeText(request->received),
                              mock_text::stepText(request->answer)));
    m_headers->setPlainText(mock_text::headersText(*request));
    m_body->setPlainText(request->body.empty() ? QString() : message_text::viewerBody(request->body));
    m_body->setPlaceholderText(tr("(no body)"));
}

} // namespace relaydesk
