// SPDX-License-Identifier: MIT
#include "api/wire/wire_error.h"

#include "api/wire/action_input.h"

#include <QRandomGenerator>
#include <QUuid>
#include <QXmlStreamWriter>

#include <nlohmann/json.hpp>

namespace relaydesk {

namespace {

constexpr const char *kSqsNamespace = "http://queue.amazonaws.com/doc/2012-11-05/";
constexpr const char *kSnsNamespace = "http://sns.amazonaws.com/doc/2010-03-31/";

QByteArray text(const std::string &value) { return QByteArray::fromStdString(value); }

HttpReply queryErrorReply(const WireError &error, const QByteArray &requestId, const char *xmlNamespace)
{
    HttpReply reply;
    reply.status = error.httpStatus;
    reply.contentType = "text/xml";
    reply.headers.emplace_back("x-amzn-RequestId", requestId);
    QXmlStreamWriter xml(&reply.body);
    xml.writeStartDocument();
    xml.writeStartElement("ErrorResponse");
    xml.writeDefaultNamespace(QString::fromLatin1(xmlNamespace));
    xml.writeStartElement("Error");
    xml.writeTextElement("Type", error.senderFault ? "Sender" : "Receiver");
    xml.writeTextElement("Code", QString::fromStdString(error.queryCode));
    xml.writeTextElement("Message", QString::fromStdString(error.message));
    xml.writeEmptyElement("Detail");
    xml.writeEndElement();
    xml.writeTextElement("RequestId", QString::fromLatin1(requestId));
    xml.writeEndElement();
    xml.writeEndDocument();
    return reply;
}

} // namespace

WireError WireError::fromBroker(const BrokerError &error)
{
    const BrokerErrorInfo &info = error.info();
    return {std::string(info.jsonCode), std::string(info.queryCode), info.httpStatus, info.senderFault, error.message};
}

WireError WireError::malformedRequest(std::string message)
{
    return {"SerializationException", "MalformedQueryString", 400, true, std::move(message)};
}

WireError WireError::unknownOperation(std::string message)
{
    return {"UnknownOperationException", "InvalidAction", 400, true, std::move(message)};
}

WireError WireError::invalidClientTokenId(std::string message)
{
    return {"InvalidClientTokenId", "InvalidClientTokenId", 403, true, std::move(message)};
}

WireError WireError::incompleteSignature(std::string message)
{
    return {"IncompleteSignature", "IncompleteSignature", 400, true, std::move(message)};
}

WireError WireError::signatureDoesNotMatch(std::string message)
{
    return {"SignatureDoesNotMatch", "SignatureDoesNotMatch", 403, true, std::move(message)};
}

WireError WireError::contentSha256Mismatch(std::string message)
{
    return {"XAmzContentSHA256Mismatch", "XAmzContentSHA256Mismatch", 400, true, std::move(message)};
}

WireError WireError::unauthorized(std::string message)
{
    return {"Unauthorized", "Unauthorized", 401, true, std::move(message)};
}

WireError WireError::bodyTooLarge(std::string message)
{
    return {"RequestEntityTooLarge", "RequestEntityTooLarge", 413, true, std::move(message)};
}

WireError WireError::misdirectedRequest(std::string message)
{
    return {"MisdirectedRequest", "MisdirectedRequest", 421, true, std::move(message)};
}

WireError WireError::accessDenied(std::string message)
{
    return {"AccessDenied", "AccessDenied", 403, true, std::move(message)};
}

WireError WireError::unsupportedMediaType(std::string message)
{
    return {"UnsupportedMediaType", "UnsupportedMediaType", 415, true, std::move(message)};
}

WireError WireError::methodNotAllowed(std::string message)
{
    return {"MethodNotAllowed", "MethodNotAllowed", 405, true, std::move(message)};
}

HttpReply sqsJsonErrorReply(const WireError &error, const QByteArray &requestId)
{
    HttpReply reply;
    reply.status = error.httpStatus;
    reply.contentType = "application/x-amz-json-1.0";
    reply.headers.emplace_back("x-amzn-RequestId", requestId);
    reply.headers.emplace_back("x-amzn-query-error",
                               text(error.queryCode) + (error.senderFault ? ";Sender" : ";Receiver"));
    const nlohmann::json body = {{"__type", "com.amazonaws.sqs#" + error.jsonCode}, {"message", error.message}};
    reply.body = text(jsonText(body));
    return reply;
}

HttpReply sqsQueryErrorReply(const WireError &error, const QByteArray &requestId)
{
    return queryErrorReply(error, requestId, kSqsNamespace);
}

HttpReply snsQueryErrorReply(const WireError &error, const QByteArray &requestId)
{
    return queryErrorReply(error, requestId, kSnsNamespace);
}

HttpReply nativeErrorReply(const WireError &error)
{
    HttpReply reply;
    reply.status = error.httpStatus;
    reply.contentType = "application/json";
    const nlohmann::json body = {{"error", error.jsonCode}, {"message", error.message}};
    reply.body = text(jsonText(body));
    return reply;
}

// A version-4 UUID from Qt's global generator (seeded once from the system).
// QUuid::createUuid() asks the kernel for its bytes on every call, a seventh
// of a SendMessage's time in the protocol thread; a request id has to be
// unique, not secret.
QByteArray newRequestId()
{
    quint32 words[4];
    QRandomGenerator::global()->fillRange(words);
    QByteArray bytes(reinterpret_cast<const char *>(words), sizeof words);
    bytes[6] = char((bytes[6] & 0x0f) | 0x40); // version 4
    bytes[8] = char((bytes[8] & 0x3f) | 0x80); // RFC 4122 variant
    return QUuid::fromRfc4122(bytes).toByteArray(QUuid::WithoutBraces);
}

} // namespace relaydesk
