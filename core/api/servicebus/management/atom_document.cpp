// SPDX-License-Identifier: MIT
#include "api/servicebus/management/atom_document.h"

namespace relaydesk {

namespace {

constexpr const char *kAtomNamespace = "http://www.w3.org/2005/Atom";

} // namespace

AtomDocument::AtomDocument(QString base, ClockTime now)
    : m_base(std::move(base)), m_now(QString::fromStdString(formatIso8601(now)))
{
    m_xml.writeStartDocument();
}

void AtomDocument::beginFeed(const QString &title, const QString &path, const std::optional<QString> &next)
{
    m_feed = true;
    m_xml.writeStartElement(QStringLiteral("feed"));
    m_xml.writeDefaultNamespace(QLatin1String(kAtomNamespace));
    m_xml.writeStartElement(QStringLiteral("title"));
    m_xml.writeAttribute(QStringLiteral("type"), QStringLiteral("text"));
    m_xml.writeCharacters(title);
    m_xml.writeEndElement();
    m_xml.writeTextElement(QStringLiteral("id"), m_base + path);
    m_xml.writeTextElement(QStringLiteral("updated"), m_now);
    m_xml.writeEmptyElement(QStringLiteral("link"));
    m_xml.writeAttribute(QStringLiteral("rel"), QStringLiteral("self"));
    m_xml.writeAttribute(QStringLiteral("href"), m_base + path);
    if (next) {
        m_xml.writeEmptyElement(QStringLiteral("link"));
        m_xml.writeAttribute(QStringLiteral("rel"), QStringLiteral("next"));
        m_xml.writeAttribute(QStringLiteral("href"), m_base + *next);
    }
}

void AtomDocument::entry(const QString &path, const QString &title, const Content &content)
{
    m_xml.writeStartElement(QStringLiteral("entry"));
    if (!m_feed)
        m_xml.writeDefaultNamespace(QLatin1String(kAtomNamespace));
    m_xml.writeTextElement(QStringLiteral("id"), m_base + path);
    m_xml.writeStartElement(QStringLiteral("title"));
    m_xml.writeAttribute(QStringLiteral("type"), QStringLiteral("text"));
    m_xml.writeCharacters(title);
    m_xml.writeEndElement();
    m_xml.writeTextElement(QStringLiteral("updated"), m_now);
    m_xml.writeEmptyElement(QStringLiteral("link"));
    m_xml.writeAttribute(QStringLiteral("rel"), QStringLiteral("self"));
    m_xml.writeAttribute(QStringLiteral("href"), m_base + path);
    m_xml.writeStartElement(QStringLiteral("content"));
    m_xml.writeAttribute(QStringLiteral("type"), QStringLiteral("application/xml"));
    content(m_xml);
    m_xml.writeEndElement();   // content
    m_xml.writeEndElement();   // entry
}

QByteArray AtomDocument::finish()
{
    if (m_feed)
        m_xml.writeEndElement();
    m_xml.writeEndDocument();
    return m_bytes;
}

QByteArray managementErrorBody(int status, const QString &detail)
{
    QByteArray bytes;
    QXmlStreamWriter xml(&bytes);
    xml.writeStartElement(QStringLiteral("Error"));
    xml.writeTextElement(QStringLiteral("Code"), QString::number(status));
    xml.writeTextElement(QStringLiteral("Detail"), detail);
    xml.writeEndElement();
    return bytes;
}

} // namespace relaydesk
