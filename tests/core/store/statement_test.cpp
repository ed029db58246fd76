// SPDX-License-Identifier: MIT
// Unit tests of Statement, CachedStatement, Transaction and Savepoint: every
// bindable type round-trips (NULL, empty and NUL-containing text and blobs),
// errors come back as values, and the RAII guards roll back when dropped.

#include "store/database.h"
#include "store/statement.h"
#include "store/transaction.h"
#include "support/test_main.h"

#include <QTemporaryDir>
#include <QVariant>
#include <QtTest>

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace relaydesk;

namespace relaydesk {
namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

std::vector<std::byte> toBytes(const QByteArray &bytes)
{
    std::vector<std::byte> result(std::size_t(bytes.size()));
    for (qsizetype i = 0; i < bytes.size(); ++i)
        result[std::size_t(i)] = std::byte(static_cast<unsigned char>(bytes[i]));
    return result;
}

QByteArray fromBytes(const std::vector<std::byte> &bytes)
{
    QByteArray result;
    for (std::byte b : bytes)
        result.append(char(b));
    return result;
}

enum class Form { Integer, Real, Text, Blob, Null };

} // namespace

class StatementTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<Database> m_db;

    std::unique_ptr<Database> openFile(const char *name)
    {
        auto opened = Database::open(m_dir.filePath(QString::fromUtf8(name)).toStdString());
        if (!opened.ok())
            qWarning("%s", opened.status().toString().c_str());
        return opened.ok() ? std::move(opened).value() : nullptr;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_db = openFile("statements.db");
        QVERIFY(m_db);
        // A column without type affinity stores each value exactly as bound.
        QVERIFY(m_db->execute("CREATE TABLE value_store (id INTEGER PRIMARY KEY, v)").ok());
        QVERIFY(m_db->execute("CREATE TABLE unique_store (k TEXT UNIQUE NOT NULL)").ok());
    }

    void bind_value_roundTripsWithType_data()
    {
        QTest::addColumn<int>("form");
        QTest::addColumn<QVariant>("value");
        const auto i64 = [](std::int64_t v) { return QVariant::fromValue<qlonglong>(v); };
        QTest::newRow("integer zero") << int(Form::Integer) << i64(0);
        QTest::newRow("integer -1") << int(Form::Integer) << i64(-1);
        QTest::newRow("integer max") << int(Form::Integer) << i64(std::numeric_limits<std::int64_t>::max());
        QTest::newRow("integer min") << int(Form::Integer) << i64(std::numeric_limits<std::int64_t>::min());
        QTest::newRow("real") << int(Form::Real) << QVariant(3.25);
        QTest::newRow("real negative tiny") << int(Form::Real) << QVariant(-1e-300);
        QTest::newRow("text empty") << int(Form::Text) << QVariant(QByteArray());
        QTest::newRow("text utf-8") << int(Form::Text) << QVariant(QByteArray("h\xC3\xA9llo \xE2\x82\xAC"));
        QTest::newRow("text with NUL") << int(Form::Text) << QVariant(QByteArray("a\0b", 3));
        QTest::newRow("blob empty") << int(Form::Blob) << QVariant(QByteArray());
        QTest::newRow("blob of zero bytes") << int(Form::Blob) << QVariant(QByteArray(5, '\0'));
        QByteArray all;
        for (int b = 0; b < 256; ++b)
            all.append(char(b));
        QTest::newRow("blob all byte values") << int(Form::Blob) << QVariant(all);
        QTest::newRow("null") << int(Form::Null) << QVariant();
    }
    void bind_value_roundTripsWithType()
    {
        QFETCH(int, form);
        QFETCH(QVariant, value);
        auto insert = m_db->prepare("INSERT INTO value_store (v) VALUES (?1)");
        QVERIFY(insert.ok());
        StoreStatus bound;
        switch (Form(form)) {
        case Form::Integer: bound = insert->bind(1, std::int64_t(value.toLongLong())); break;
        case Form::Real: bound = insert->bind(1, value.toDouble()); break;
        case Form::Text: bound = insert->bind(1, value.toByteArray().toStdString()); break;
        case Form::Blob: bound = insert->bind(1, toBytes(value.toByteArray())); break;
        case Form::Null: bound = insert->bind(1, std::nullopt); break;
        }
        QVERIFY2(bound.ok(), bound.toString().c_str());
        QVERIFY(insert->execute().ok());
        const std::int64_t id = m_db->lastInsertRowId();

        auto select = m_db->prepare("SELECT v, typeof(v), length(CAST(v AS BLOB)) FROM value_store WHERE id = ?");
        QVERIFY(select.ok());
        QVERIFY(select->bind(1, id).ok());
        auto step = select->step();
        QVERIFY2(step.ok(), step.status().toString().c_str());
        QCOMPARE(*step, Step::Row);
        switch (Form(form)) {
        case Form::Integer:
            QCOMPARE(select->columnType(0), ColumnType::Integer);
            QCOMPARE(select->columnInt64(0), std::int64_t(value.toLongLong()));
            break;
        case Form::Real:
            QCOMPARE(select->columnType(0), ColumnType::Real);
            QCOMPARE(select->columnDouble(0), value.toDouble());
            break;
        case Form::Text:
            QCOMPARE(select->columnType(0), ColumnType::Text);
            QCOMPARE(qs(select->columnText(1)), QStringLiteral("text"));
            QCOMPARE(QByteArray::fromStdString(select->columnText(0)), value.toByteArray());
            QVERIFY(select->columnOptionalText(0).has_value());
            break;
        case Form::Blob:
            QCOMPARE(select->columnType(0), ColumnType::Blob);
            QCOMPARE(qs(select->columnText(1)), QStringLiteral("blob"));
            QCOMPARE(select->columnInt64(2), std::int64_t(value.toByteArray().size()));
            QCOMPARE(fromBytes(select->columnBlob(0)), value.toByteArray());
            break;
        case Form::Null:
            QCOMPARE(select->columnType(0), ColumnType::Null);
            QVERIFY(select->columnIsNull(0));
            QVERIFY(!select->columnOptionalInt64(0).has_value());
            QVERIFY(!select->columnOptionalText(0).has_value());
            QVERIFY(!select->columnOptionalDouble(0).has_value());
            break;
        }
        QCOMPARE(*select->step(), Step::Done);
    }

    void bind_optional_bindsValueOrNull()
    {
        auto insert = m_db->prepare("INSERT INTO value_store (v) VALUES (?)");
        QVERIFY(insert.ok());
        QVERIFY(insert->bind(1, std::optional<std::int64_t>()).ok());
        QVERIFY(insert->execute().ok());
        const std::int64_t nullId = m_db->lastInsertRowId();
        QVERIFY(insert->bind(1, std::optional<std::int64_t>(77)).ok());
        QVERIFY(insert->execute().ok());
        const std::int64_t valueId = m_db->lastInsertRowId();

        auto select = m_db->prepare("SELECT v FROM value_store WHERE id = ?");
        QVERIFY(select->bind(1, nullId).ok());
        QCOMPARE(*select->step(), Step::Row);
        QCOMPARE(select->columnOptionalInt64(0), std::optional<std::int64_t>());
        select->reset();
        QVERIFY(select->bind(1, valueId).ok());
        QCOMPARE(*select->step(), Step::Row);
        QCOMPARE(select->columnOptionalInt64(0), std::optional<std::int64_t>(77));
    }

    void bind_cppTypes_pickSqliteType()
    {
        auto select = m_db->prepare("SELECT typeof(?1), typeof(?2), typeof(?3), typeof(?4), typeof(?5), typeof(?6)");
        QVERIFY(select.ok());
        QVERIFY(select->bind(1, 5).ok());              // int
        QVERIFY(select->bind(2, true).ok());           // bool
        QVERIFY(select->bind(3, 2.5f).ok());           // float
        QVERIFY(select->bind(4, "literal").ok());      // const char[]
        QVERIFY(select->bind(5, std::string("s")).ok());
        QVERIFY(select->bind(6, Step::Done).ok());     // enum
        QCOMPARE(*select->step(), Step::Row);
        const QStringList types = {qs(select->columnText(0)), qs(select->columnText(1)), qs(select->columnText(2)),
                                   qs(select->columnText(3)), qs(select->columnText(4)), qs(select->columnText(5))};
        QCOMPARE(types, (QStringList{"integer", "integer", "real", "text", "text", "integer"}));
    }

    void bind_byName_bindsAndUnknownNameIsMisuse()
    {
        auto select = m_db->prepare("SELECT :a + :b");
        QVERIFY(select.ok());
        QVERIFY(select->bind(":a", 40).ok());
        QVERIFY(select->bind(":b", 2).ok());
        QCOMPARE(*select->step(), Step::Row);
        QCOMPARE(select->columnInt64(0), 42);

        const StoreStatus unknown = select->bind(":c", 1);
        QCOMPARE(unknown.kind(), StoreStatus::Kind::Misuse);
        QVERIFY(unknown.message().find(":c") != std::string::npos);
    }

    void bind_indexOutOfRange_returnsMisuse()
    {
        auto select = m_db->prepare("SELECT ?");
        QCOMPARE(select->bind(2, 1).kind(), StoreStatus::Kind::Misuse);
    }

    void prepare_invalidSql_returnsErrorNamingTheSql()
    {
        auto bad = m_db->prepare("SELEC nothing");
        QVERIFY(!bad.ok());
        QCOMPARE(bad.status().kind(), StoreStatus::Kind::Failed);
        QVERIFY2(bad.status().message().find("SELEC nothing") != std::string::npos, bad.status().message().c_str());
    }

    void step_uniqueViolation_returnsConstraint()
    {
        QVERIFY(m_db->execute("INSERT INTO unique_store (k) VALUES ('dup')").ok());
        auto insert = m_db->prepare("INSERT INTO unique_store (k) VALUES (?)");
        QVERIFY(insert->bind(1, "dup").ok());
        auto step = insert->step();
        QVERIFY(!step.ok());
        QCOMPARE(step.status().kind(), StoreStatus::Kind::Constraint);
        QVERIFY(step.status().sqliteCode() != 0);
        insert->reset();
        QVERIFY(insert->bind(1, "other").ok());
        QVERIFY(insert->execute().ok()); // reusable after the error
    }

    void reset_keepsBindingsAndRunsAgain()
    {
        auto select = m_db->prepare("SELECT ? * 2");
        QVERIFY(select->bind(1, 21).ok());
        QCOMPARE(*select->step(), Step::Row);
        QCOMPARE(select->columnInt64(0), 42);
        select->reset();
        QCOMPARE(*select->step(), Step::Row);
        QCOMPARE(select->columnInt64(0), 42);
        select->reset();
        select->clearBindings();
        QCOMPARE(*select->step(), Step::Row);
        QVERIFY(select->columnIsNull(0));
    }

    void prepareCached_sameSql_reusesOneStatementAndNestsSafely()
    {
        const std::size_t before = m_db->cachedStatementCount();
        for (int i = 0; i < 5; ++i) {
            auto cached = m_db->prepareCached("SELECT ? + 1");
            QVERIFY(cached.ok());
            QVERIFY((*cached)->bind(1, i).ok());
            QCOMPARE(*(*cached)->step(), Step::Row);
            QCOMPARE((*cached)->columnInt64(0), i + 1);
        }
        QCOMPARE(m_db->cachedStatementCount(), before + 1);

        {
            auto outer = m_db->prepareCached("SELECT ? + 1");
            auto inner = m_db->prepareCached("SELECT ? + 1"); // same text while the first is borrowed
            QVERIFY(outer.ok() && inner.ok());
            QVERIFY((*outer)->bind(1, 1).ok());
            QVERIFY((*inner)->bind(1, 10).ok());
            QCOMPARE(*(*outer)->step(), Step::Row);
            QCOMPARE(*(*inner)->step(), Step::Row);
            QCOMPARE((*outer)->columnInt64(0), 2);
            QCOMPARE((*inner)->columnInt64(0), 11);
        }
        QCOMPARE(m_db->cachedStatementCount(), before + 1);

        // A handle moved out of its result keeps the statement lent: the
        // moved-from result gives nothing back, so the next borrow of the
        // same text is a statement of its own.
        CachedStatement moved = [&] { return std::move(m_db->prepareCached("SELECT ? + 1")).value(); }();
        QVERIFY(moved->bind(1, 41).ok());
        auto other = m_db->prepareCached("SELECT ? + 1");
        QVERIFY((*other)->bind(1, 1).ok());
        QCOMPARE(*moved->step(), Step::Row);
        QCOMPARE(moved->columnInt64(0), 42);
        QCOMPARE(m_db->cachedStatementCount(), before + 1);
    }

    void prepareCached_returned_hasBindingsCleared()
    {
        {
            auto cached = m_db->prepareCached("SELECT ?");
            QVERIFY((*cached)->bind(1, 5).ok());
        }
        auto again = m_db->prepareCached("SELECT ?");
        QCOMPARE(*(*again)->step(), Step::Row);
        QVERIFY((*again)->columnIsNull(0));
    }

    void transaction_destroyedWithoutCommit_rollsBack()
    {
        const auto count = [&] { return *m_db->queryInt64("SELECT count(*) FROM unique_store WHERE k LIKE 'tx-%'"); };
        {
            auto transaction = Transaction::begin(*m_db);
            QVERIFY(transaction.ok());
            QVERIFY(m_db->inTransaction());
            QVERIFY(m_db->execute("INSERT INTO unique_store (k) VALUES ('tx-dropped')").ok());
            QCOMPARE(count(), 1);
        }
        QVERIFY(!m_db->inTransaction());
        QCOMPARE(count(), 0);
        {
            auto transaction = Transaction::begin(*m_db);
            QVERIFY(m_db->execute("INSERT INTO unique_store (k) VALUES ('tx-kept')").ok());
            QVERIFY(transaction->commit().ok());
        }
        QCOMPARE(count(), 1);
    }

    void transaction_insideTransaction_refusedMisuse()
    {
        auto outer = Transaction::begin(*m_db);
        QVERIFY(outer.ok());
        auto inner = Transaction::begin(*m_db);
        QVERIFY(!inner.ok());
        QCOMPARE(inner.status().kind(), StoreStatus::Kind::Misuse);
    }

    void savepoint_rollback_undoesOnlyItsOwnChanges()
    {
        auto transaction = Transaction::begin(*m_db);
        QVERIFY(transaction.ok());
        QVERIFY(m_db->execute("INSERT INTO unique_store (k) VALUES ('sp-before')").ok());
        {
            auto savepoint = Savepoint::begin(*m_db);
            QVERIFY(savepoint.ok());
            QVERIFY(m_db->execute("INSERT INTO unique_store (k) VALUES ('sp-undone')").ok());
            // dropped without release(): rolled back
        }
        {
            auto savepoint = Savepoint::begin(*m_db);
            QVERIFY(m_db->execute("INSERT INTO unique_store (k) VALUES ('sp-released')").ok());
            QVERIFY(savepoint->release().ok());
        }
        QVERIFY(m_db->inTransaction());
        QVERIFY(transaction->commit().ok());
        QCOMPARE(*m_db->queryInt64("SELECT count(*) FROM unique_store WHERE k LIKE 'sp-%'"), 2);
        QCOMPARE(*m_db->queryInt64("SELECT count(*) FROM unique_store WHERE k = 'sp-undone'"), 0);
    }

    void committedTransaction_survivesReopen()
    {
        {
            auto db = openFile("reopen.db");
            QVERIFY(db);
            auto transaction = Transaction::begin(*db);
            QVERIFY(db->execute("INSERT INTO settings (key, value) VALUES ('k', 'v')").ok());
            QVERIFY(transaction->commit().ok());
        }
        auto db = openFile("reopen.db");
        QVERIFY(db);
        QCOMPARE(qs(*db->queryText("SELECT value FROM settings WHERE key = 'k'")), QStringLiteral("v"));
    }

    void cleanupTestCase() { m_db.reset(); }
};

} // namespace relaydesk

RELAYDESK_TEST_MAIN(relaydesk::StatementTest)
#include "statement_test.moc"
