// SPDX-License-Identifier: MIT
// What each kind of connection offers per entity kind — the table of
// docs/window.md "Connections: what the boundary offers" — and a reason for
// everything it does not offer.
#include "connections/aws_connection.h"
#include "connections/embedded_connection.h"
#include "connections/relaydesk_connection.h"
#include "connections/servicebus_connection.h"
#include "connections/zaqar_connection.h"
#include "support/engine_test_support.h"
#include "support/test_main.h"

#include <QTemporaryDir>
#include <QTest>

using namespace relaydesk;
using F = ConnectionFeature;

namespace {

constexpr F kFeatures[] = {F::List, F::Counts, F::Attributes, F::Create, F::Delete, F::Purge, F::Send,
                           F::Peek, F::Poll, F::Settle, F::AttemptLog, F::Mocks, F::Clock, F::DeadLetters};

// The offered features of a queue, a topic and a subscription, as letters:
// L list, C counts, A attributes, N create, D delete, P purge, S send, K peek,
// O poll, T settle (delete a polled message), G attempt log, M mocks, W clock,
// X dead letters (the subqueue, abandon and dead-letter, resubmit).
QString offered(const BrokerConnection &connection, EntityKind kind)
{
    static const QString letters = QStringLiteral("LCANDPSKOTGMWX");
    QString text;
    for (std::size_t i = 0; i < std::size(kFeatures); ++i)
        if (connection.capability(kind, kFeatures[i]).offered)
            text += letters[qsizetype(i)];
    return text;
}

} // namespace

class ConnectionCapabilitiesTest : public QObject {
    Q_OBJECT
private slots:
    void table_data();
    void table();
};

void ConnectionCapabilitiesTest::table_data()
{
    QTest::addColumn<QString>("connection");
    QTest::addColumn<QString>("queue");
    QTest::addColumn<QString>("topic");
    QTest::addColumn<QString>("subscription");
    QTest::addColumn<QString>("moves");   // the kinds moveMessages() takes: Q queue, T topic, S subscription
    QTest::newRow("This computer") << "embedded" << "LANDPSKOT" << "LANDS" << "LAND" << "";
    QTest::newRow("AWS profile") << "aws" << "LANDPSOT" << "LANDS" << "LAND" << "Q";
    QTest::newRow("another Relaydesk") << "relaydesk" << "LANDPSKOTMW" << "LANDSMW" << "LANDGMW" << "Q";
    QTest::newRow("Zaqar endpoint") << "zaqar" << "LANDPSKOT" << "" << "" << "";
    // Service Bus: queue, topic, subscription (its entity kinds, in that order).
    QTest::newRow("Service Bus namespace") << "servicebus" << "LCANDPSKOTX" << "LANDS" << "LCANDPKOTX" << "";
}

void ConnectionCapabilitiesTest::table()
{
    QFETCH(QString, connection);
    QFETCH(QString, queue);
    QFETCH(QString, topic);
    QFETCH(QString, subscription);
    QFETCH(QString, moves);
    QTemporaryDir dir;
    relaydesk::testing::ServiceBench bench(dir, "capabilities.db", fromEpochMilliseconds(1795000000000));
    std::unique_ptr<BrokerConnection> made;
    if (connection == QLatin1String("embedded"))
        made = std::make_unique<EmbeddedConnection>(bench.service(), bench.identity());
    else if (connection == QLatin1String("aws"))
        made = std::make_unique<AwsConnection>(AwsProfile{});
    else if (connection == QLatin1String("relaydesk"))
        made = std::make_unique<RelaydeskConnection>(RelaydeskConnection::Settings{});
    else if (connection == QLatin1String("zaqar"))
        made = std::make_unique<ZaqarConnection>(ZaqarConnection::Settings{});
    else
        made = std::make_unique<ServiceBusConnection>(ServiceBusConnection::Settings{});
    // The connection's own kinds: its queues, topics and subscriptions, in that order.
    std::vector<EntityKind> kinds = made->entityKinds();
    if (kinds.size() == 1)
        kinds = {kinds.front(), EntityKind::Topic, EntityKind::Subscription};
    QCOMPARE(offered(*made, kinds[0]), queue);
    QCOMPARE(offered(*made, kinds[1]), topic);
    QCOMPARE(offered(*made, kinds[2]), subscription);
    QString moving;
    for (std::size_t i = 0; i < kinds.size(); ++i)
        if (made->moves(kinds[i]).offered)
            moving += QStringLiteral("QTS")[qsizetype(i)];
    QCOMPARE(moving, moves);
    for (EntityKind kind : {EntityKind::Queue, EntityKind::Topic, EntityKind::Subscription, EntityKind::ServiceBusQueue,
                            EntityKind::ServiceBusTopic, EntityKind::ServiceBusSubscription, EntityKind::ZaqarQueue}) {
        QVERIFY2(made->moves(kind).offered || !made->moves(kind).reason.isEmpty(), "no moves says why");
        for (F feature : kFeatures) {
            const Capability capability = made->capability(kind, feature);
            QVERIFY2(capability.offered || !capability.reason.isEmpty(), "a feature not offered says why");
            QVERIFY(!capability.offered || capability.reason.isEmpty());
        }
    }
}

RELAYDESK_TEST_MAIN(ConnectionCapabilitiesTest)
#include "connection_capabilities_test.moc"
