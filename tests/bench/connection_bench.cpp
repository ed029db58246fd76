// SPDX-License-Identifier: MIT
// connection_bench: the remote connections' figures of docs/figures.md
// ("Remote connections"): listing many queues and polling many messages
// through the BrokerConnection boundary, against `relaydesk serve` in a
// process of its own, as the window's tree and Messages tab call it.
//
//   connection_bench RELAYDESK_BINARY QUEUES MESSAGES [ROUNDS]
//
// Creates QUEUES queues (32 calls in flight), then ROUNDS times lists them
// through an AWS profile (endpoint_url: SQS JSON, SigV4) and through a
// Relaydesk connection; sends MESSAGES messages into one queue and polls them
// all (10 a call, as the Messages tab's "Poll messages"; they stay hidden),
// then sends as many again and polls and deletes each of those. Prints one line per figure: the wall time, and the
// longest the calling thread's event loop went without running a 5 ms timer
// while the call was in flight (how long a window would have been frozen).
#include "connections/aws_connection.h"
#include "connections/aws_profiles.h"
#include "connections/relaydesk_connection.h"
#include "support/server_process.h"
#include "connection_bench_support.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTimer>

#include <cstdio>
#include <functional>
#include <memory>

using namespace relaydesk;
using namespace relaydesk::bench;

namespace {

int fail(const QString &what)
{
    std::fprintf(stderr, "connection_bench: %s\n", qPrintable(what));
    return 1;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc < 4)
        return fail(QStringLiteral("usage: connection_bench RELAYDESK_BINARY QUEUES MESSAGES [ROUNDS]"));
    const int queues = QString::fromUtf8(argv[2]).toInt();
    const int messages = QString::fromUtf8(argv[3]).toInt();
    const int rounds = argc > 4 ? QString::fromUtf8(argv[4]).toInt() : 3;

    test::ServerProcess server;
    const QString url = startServe(server, QString::fromUtf8(argv[1]));
    if (url.isEmpty())
        return fail(QStringLiteral("serve did not start: ") + server.errors());

    const AwsProfileList profiles = readAwsProfiles(
        QStringLiteral("[profile bench]\nregion = us-east-1\nendpoint_url = %1\n").arg(url),
        QStringLiteral("[bench]\naws_access_key_id = bench\naws_secret_access_key = bench\n"));
    AwsConnection aws(*profiles.find(QStringLiteral("bench")));
    RelaydeskConnection relaydesk({QStringLiteral("bench"), QUrl(url), {}, {}});
    LoopWatch watch;

    QElapsedTimer clock;
    clock.start();
    const bool created = inParallel(queues, 32, [&](int i, std::function<void(bool)> done) {
        aws.createEntity(EntityKind::Queue, QStringLiteral("q%1").arg(i, 6, 10, QLatin1Char('0')), {}, {},
                         [done](ConnectionResult<EntityRef> r) { done(r.ok); });
    });
    if (!created)
        return fail(QStringLiteral("creating the queues failed"));
    report("create queues (32 in flight)", clock.elapsed(), 0, QStringLiteral("%1 queues").arg(queues));

    for (int round = 0; round < rounds; ++round) {
        for (BrokerConnection *connection : {static_cast<BrokerConnection *>(&aws), static_cast<BrokerConnection *>(&relaydesk)}) {
            clock.restart();
            watch.start();
            const auto listed = await<std::vector<EntitySummary>>(
                [&](auto reply) { return connection->listEntities(EntityKind::Queue, {}, reply); });
            const qint64 frozen = watch.stop();
            if (!listed.ok || static_cast<int>(listed.value.size()) < queues)
                return fail(QStringLiteral("listing failed: ") + listed.error.text());
            report(connection == &aws ? "list queues, AWS profile (endpoint_url)" : "list queues, Relaydesk connection",
                   clock.elapsed(), frozen, QStringLiteral("%1 listed").arg(listed.value.size()));
        }
    }

    const auto queue = await<EntityRef>([&](auto reply) {
        return aws.createEntity(EntityKind::Queue, QStringLiteral("polled"), {}, {}, reply);
    });
    if (!queue.ok)
        return fail(queue.error.text());
    for (int pass = 0; pass < 2; ++pass) {
        clock.restart();
        const bool sent = inParallel(messages, 32, [&](int i, std::function<void(bool)> done) {
            OutgoingMessage message;
            message.body = QStringLiteral("message %1").arg(i);
            aws.send(queue.value, message, [done](ConnectionResult<QString> r) { done(r.ok); });
        });
        if (!sent)
            return fail(QStringLiteral("sending failed"));
        report("send (32 in flight)", clock.elapsed(), 0, QStringLiteral("%1 messages").arg(messages));

        const bool settle = pass == 1;
        int received = 0, calls = 0;
        qint64 frozen = 0;
        clock.restart();
        while (received < messages) {
            watch.start();
            const auto polled = await<std::vector<MessageLine>>(
                [&](auto reply) { return aws.poll(queue.value, {10, settle ? 30 : 600}, reply); });
            frozen = std::max(frozen, watch.stop());
            ++calls;
            if (!polled.ok)
                return fail(polled.error.text());
            received += static_cast<int>(polled.value.size());
            if (settle && !inParallel(static_cast<int>(polled.value.size()), 10, [&](int i, std::function<void(bool)> done) {
                    aws.settle(queue.value, polled.value[i], [done](ConnectionResult<Done> r) { done(r.ok); });
                }))
                return fail(QStringLiteral("settling failed"));
        }
        report(settle ? "poll + delete each, 10 a call" : "poll, 10 a call", clock.elapsed(), frozen,
               QStringLiteral("%1 messages in %2 polls").arg(received).arg(calls));
    }
    return 0;
}
