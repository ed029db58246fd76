// SPDX-License-Identifier: MIT
// Native API: /metrics (JSON), and GET /metrics (Prometheus text).
#include "api/native/native_api.h"

#include "broker/metrics/broker_metrics.h"
#include "engine/broker_engine.h"
#include "engine/metrics_recording.h"
#include "api/native/metrics_json.h"
#include "api/native/prometheus_text.h"

#include <QStringList>
#include <QThreadPool>
#include <QUrlQuery>

#include <memory>

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

// Runs `write` on a pool thread and hands its result to `answer` on the
// thread of `context` (dropped when the context is gone; at once when there
// is none). Writing the metrics of 100 000 queues takes seconds
// (docs/figures.md "Metrics"): off the thread of the HTTP connections, every
// other request goes on meanwhile. The snapshot is a plain value taken
// under the metrics' mutex, so the pool thread shares nothing.
template <class Text>
void writeOffThread(QObject *context, std::function<Text()> write, std::function<void(Text)> answer)
{
    if (context == nullptr) {
        answer(write());
        return;
    }
    const ReplyTarget target(context);
    QThreadPool::globalInstance()->start([target, write = std::move(write), answer = std::move(answer)] {
        auto text = std::make_shared<Text>(write());
        target.post([text, answer] { answer(std::move(*text)); });
    });
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
    QObject *replyContext = context.replyContext;
    refreshQueueDepths(engine, replyContext, [reply, &engine, replyContext, query = request.query] {
        MetricsSnapshot snapshot = engine.metrics().snapshot();
        writeOffThread<std::string>(
            replyContext,
            [snapshot = std::move(snapshot), query]() mutable {
                narrow(snapshot, query);
                return jsonText(metricsJson(snapshot));
            },
            [reply](std::string text) {
                NativeAnswer answer;
                answer.rawBody = std::move(text);
                answer.rawContentType = "application/json";
                reply(std::move(answer));
            });
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
        writeOffThread<std::string>(
            channel.context(), [snapshot = engine.metrics().snapshot()] { return prometheusText(snapshot); },
            [channel](std::string text) mutable {
                // HEAD: the connection sends the head of this answer only.
                channel.send(HttpReply{200,
                                       QByteArray(kPrometheusContentType.data(), qsizetype(kPrometheusContentType.size())),
                                       {}, QByteArray::fromStdString(text)});
            });
    });
}

} // namespace relaydesk
