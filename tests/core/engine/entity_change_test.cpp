// SPDX-License-Identifier: MIT
// Unit tests of EntityChangeCoalescer: one fact per entity, in first-seen
// order, with the merge rules of its header.
#include "engine/entity_change.h"
#include "support/test_main.h"

#include <QTest>

using namespace relaydesk;

namespace {
using Kind = EntityChange::Kind;
using Entity = EntityChange::Entity;
EntityChange change(Kind kind, const char *name, Entity entity = Entity::Queue) { return {kind, entity, QString::fromUtf8(name)}; }
} // namespace

Q_DECLARE_METATYPE(relaydesk::EntityChange::Kind)

class EntityChangeTest final : public QObject {
    Q_OBJECT

private slots:
    void manyChangesToOneEntity_becomeOne()
    {
        EntityChangeCoalescer coalescer;
        for (int i = 0; i < 100; ++i)
            coalescer.add(change(Kind::CountsChanged, "orders"));
        QCOMPARE(coalescer.size(), std::size_t(1));
        const QList<EntityChange> out = coalescer.take();
        QCOMPARE(out.size(), 1);
        QCOMPARE(out.front(), change(Kind::CountsChanged, "orders"));
        QVERIFY(coalescer.empty());
        QVERIFY(coalescer.take().isEmpty());
    }

    void merge_data()
    {
        QTest::addColumn<Kind>("earlier");
        QTest::addColumn<Kind>("later");
        QTest::addColumn<bool>("remains");
        QTest::addColumn<Kind>("merged");
        QTest::newRow("created+deleted cancel") << Kind::Created << Kind::Deleted << false << Kind::Created;
        QTest::newRow("created+changed") << Kind::Created << Kind::Changed << true << Kind::Created;
        QTest::newRow("created+counts") << Kind::Created << Kind::CountsChanged << true << Kind::Created;
        QTest::newRow("deleted+created") << Kind::Deleted << Kind::Created << true << Kind::Changed;
        QTest::newRow("changed+deleted") << Kind::Changed << Kind::Deleted << true << Kind::Deleted;
        QTest::newRow("counts+deleted") << Kind::CountsChanged << Kind::Deleted << true << Kind::Deleted;
        QTest::newRow("changed+counts") << Kind::Changed << Kind::CountsChanged << true << Kind::Changed;
        QTest::newRow("counts+changed") << Kind::CountsChanged << Kind::Changed << true << Kind::Changed;
        QTest::newRow("counts+counts") << Kind::CountsChanged << Kind::CountsChanged << true << Kind::CountsChanged;
    }
    void merge()
    {
        QFETCH(Kind, earlier);
        QFETCH(Kind, later);
        QFETCH(bool, remains);
        QFETCH(Kind, merged);
        EntityChangeCoalescer coalescer;
        coalescer.add(change(earlier, "t", Entity::Topic));
        coalescer.add(change(later, "t", Entity::Topic));
        const QList<EntityChange> out = coalescer.take();
        QCOMPARE(out.size(), remains ? 1 : 0);
        if (remains)
            QCOMPARE(out.front(), change(merged, "t", Entity::Topic));
    }

    // AttemptsLogged is a fact of its own: it merges only with itself and
    // never cancels or is cancelled; the other kinds merge as without it.
    void attemptsLogged_data()
    {
        QTest::addColumn<QList<Kind>>("added");
        QTest::addColumn<QList<Kind>>("taken");
        QTest::newRow("a burst is one") << QList<Kind>{Kind::AttemptsLogged, Kind::AttemptsLogged, Kind::AttemptsLogged}
                                        << QList<Kind>{Kind::AttemptsLogged};
        QTest::newRow("beside counts") << QList<Kind>{Kind::CountsChanged, Kind::AttemptsLogged, Kind::CountsChanged}
                                       << QList<Kind>{Kind::CountsChanged, Kind::AttemptsLogged};
        QTest::newRow("first seen keeps its place")
            << QList<Kind>{Kind::AttemptsLogged, Kind::Changed, Kind::AttemptsLogged}
            << QList<Kind>{Kind::AttemptsLogged, Kind::Changed};
        QTest::newRow("deleted after it: both") << QList<Kind>{Kind::AttemptsLogged, Kind::Deleted}
                                                << QList<Kind>{Kind::AttemptsLogged, Kind::Deleted};
        QTest::newRow("created+deleted cancel, it stays")
            << QList<Kind>{Kind::Created, Kind::AttemptsLogged, Kind::Deleted} << QList<Kind>{Kind::AttemptsLogged};
    }
    void attemptsLogged()
    {
        QFETCH(QList<Kind>, added);
        QFETCH(QList<Kind>, taken);
        EntityChangeCoalescer coalescer;
        for (Kind kind : added)
            coalescer.add(change(kind, "arn:sub", Entity::Subscription));
        QCOMPARE(coalescer.size(), std::size_t(taken.size()));
        QList<EntityChange> expected;
        for (Kind kind : taken)
            expected.push_back(change(kind, "arn:sub", Entity::Subscription));
        QCOMPARE(coalescer.take(), expected);
    }

    void differentEntities_keepFirstSeenOrder()
    {
        EntityChangeCoalescer coalescer;
        coalescer.add(change(Kind::Changed, "b"));
        coalescer.add(change(Kind::Created, "a", Entity::Topic));
        coalescer.add(change(Kind::Changed, "a")); // queue "a" is not topic "a"
        coalescer.add(change(Kind::CountsChanged, "b"));
        const QList<EntityChange> out = coalescer.take();
        QCOMPARE(out.size(), 3);
        QCOMPARE(out[0], change(Kind::Changed, "b"));
        QCOMPARE(out[1], change(Kind::Created, "a", Entity::Topic));
        QCOMPARE(out[2], change(Kind::Changed, "a"));
    }

    void cancelledEntity_canAppearAgainLater()
    {
        EntityChangeCoalescer coalescer;
        coalescer.add(change(Kind::Created, "x"));
        coalescer.add(change(Kind::Changed, "y"));
        coalescer.add(change(Kind::Deleted, "x"));
        QCOMPARE(coalescer.size(), std::size_t(1));
        coalescer.add(change(Kind::Created, "x"));
        const QList<EntityChange> out = coalescer.take();
        QCOMPARE(out.size(), 2);
        QCOMPARE(out[0], change(Kind::Changed, "y"));
        QCOMPARE(out[1], change(Kind::Created, "x"));
    }
};

RELAYDESK_TEST_MAIN(EntityChangeTest)
#include "entity_change_test.moc"
