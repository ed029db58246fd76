// SPDX-License-Identifier: MIT
// ConnectionSecrets through a real secret service (docs/window.md
// "Connections", "Secrets"): run by tests/ui/with_secret_service.sh under a
// D-Bus session of its own with gnome-keyring-daemon unlocked (Debian:
// dbus, gnome-keyring). A secret stored by one ConnectionSecrets is read back
// by another (the next session of the window), and forgotten with its
// connection. Without a secret service the store is memory only: that path
// is connection_tree_test's.
#include "models/connection_secrets.h"
#include "support/test_main.h"

#include <QSignalSpy>
#include <QTest>
#include <QUuid>

using namespace relaydesk;

class ConnectionSecretsTest : public QObject {
    Q_OBJECT
private slots:
    void storedSecret_isReadByTheNextSession()
    {
        const QString id = QStringLiteral("window:test-") + QUuid::createUuid().toString(QUuid::WithoutBraces);
        {
            ConnectionSecrets first;
            QVERIFY2(QTest::qWaitFor([&] { return first.persistent(); }, 20000),
                     "no secret service answered: run under tests/ui/with_secret_service.sh");
            QVERIFY(first.whereText().contains(QStringLiteral("secret service")));
            QSignalSpy written(&first, &ConnectionSecrets::written);
            first.store(id, QStringLiteral("s3cr3t"));
            QVERIFY(written.wait(20000));
            QVERIFY(first.persistent());   // the write was taken
        }
        ConnectionSecrets next;
        bool loaded = false;
        next.load({id}, [&] { loaded = true; });
        QVERIFY(QTest::qWaitFor([&] { return loaded; }, 20000));
        QCOMPARE(next.find(id), QStringLiteral("s3cr3t"));
        next.forget(id);
        ConnectionSecrets after;
        loaded = false;
        after.load({id}, [&] { loaded = true; });
        QVERIFY(QTest::qWaitFor([&] { return loaded; }, 20000));
        QCOMPARE(after.find(id), QString());
    }
};

RELAYDESK_TEST_MAIN(ConnectionSecretsTest)
#include "connection_secrets_test.moc"
