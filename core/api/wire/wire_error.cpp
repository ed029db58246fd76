// SPDX-License-Identifier: MIT
#include "api/wire/wire_error.h"

#include "api/wire/action_input.h"

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

QByteArray newRequestId() { return QUuid::createUuid().toByteArray(QUuid::WithoutBraces); }

} // namespace relaydesk
