// SPDX-License-Identifier: MIT
// Native API: /metrics (JSON), and GET /metrics (Prometheus text).
#include "api/native/native_api.h"

#include "broker/metrics/broker_metrics.h"
#include "engine/broker_engine.h"
#include "engine/metrics_recording.h"
#include "api/native/metrics_json.h"
#include "api/native/prometheus_text.h"

#include <QStringList>
#include <QUrlQuery>

namespace relaydesk {

namespace {

// ?queue=NAME&topic=NAME (each repeatable): when any is given, the lists
// hold only the entities named (the totals stay the broker's).
void narrow(MetricsSnapshot &snapshot, const QUrlQuery &query)
{
    const QStringList queues = query.allQueryItemValues(QStringLiteral("queue"), QUrl::FullyDecoded);
    const QStringList topics = query.allQueryItemValues(QStringLiteral("topic"), QUrl::FullyDecoded);
    if (queues.isEmpty() && topics.isEmpty())
        return;
    std::erase_if(snapshot.queues, [&](const QueueMetrics &queue) { return !queues.contains(QString::fromStdString(queue.name)); });
    std::erase_if(snapshot.topics, [&](const TopicMetrics &topic) { return !topics.contains(QString::fromStdString(topic.name)); });
}

} // namespace

namespace native_routes {

bool metrics(const NativeRequest &request, const NativeContext &context, const NativeReply &reply)
{
    if (request.path.size() != 1 || request.path[0] != "metrics")
        return false;
    if (request.method != "GET") {
        reply(methodNotAllowed(request));
        return true;
    }
    BrokerEngine &engine = context.engine;
    refreshQueueDepths(engine, context.replyContext, [reply, &engine, query = request.query] {
        MetricsSnapshot snapshot = engine.metrics().snapshot();
        narrow(snapshot, query);
        reply(NativeAnswer{200, metricsJson(snapshot)});
    });
    return true;
}

} // namespace native_routes

void answerPrometheus(BrokerEngine &engine, const QByteArray &method, ReplyChannel channel)
{
    if (method != "GET" && method != "HEAD") {
        channel.send(HttpReply{405, "application/json", {{"Allow", "GET, HEAD"}},
                               QByteArray::fromStdString(jsonText(
                                   {{"error", "MethodNotAllowed"},
                                    {"message", method.toStdString() + " is not allowed on /metrics."}}))});
        return;
    }
    refreshQueueDepths(engine, channel.context(), [channel, &engine]() mutable {
        // HEAD: the connection sends the head of this answer only.
        channel.send(HttpReply{200, QByteArray(kPrometheusContentType.data(), qsizetype(kPrometheusContentType.size())),
                               {}, QByteArray::fromStdString(prometheusText(engine.metrics().snapshot()))});
    });
}

} // namespace relaydesk
