// SPDX-License-Identifier: MIT
// `relaydesk serve` as a user runs it: the real binary, no display, real
// HTTP on loopback, a real database file.
#include "store/database.h"
#include "support/test_main.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/socket.h>

namespace {

const QString kBinary = QStringLiteral(RELAYDESK_BINARY);

QProcessEnvironment headless()
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        environment.remove(QString::fromLatin1(name));
    return environment;
}

// A `relaydesk serve` run expected to end by itself (within 30 s): whether
// it did, its exit code and what it printed.
struct FinishedRun {
    bool ended = false;
    int exitCode = -1;
    QByteArray out;
    QString err;
};

// Every run takes a free AMQP and management port and no AMQPS port unless it names one (on the
// command line or in the environment): runs go side by side.
QStringList withAmqpPort(const QStringList &arguments, const QProcessEnvironment &environment = {})
{
    QStringList all = arguments;
    if (!arguments.contains(QStringLiteral("--amqp-port")) && !environment.contains(QStringLiteral("RELAYDESK_AMQP_PORT")))
        all += QStringList{QStringLiteral("--amqp-port"), QStringLiteral("0")};
    if (!arguments.contains(QStringLiteral("--amqps-port")) && !environment.contains(QStringLiteral("RELAYDESK_AMQPS_PORT")))
        all += QStringList{QStringLiteral("--amqps-port"), QStringLiteral("off")};
    if (!arguments.contains(QStringLiteral("--sb-management-port"))
        && !environment.contains(QStringLiteral("RELAYDESK_SB_MANAGEMENT_PORT")))
        all += QStringList{QStringLiteral("--sb-management-port"), QStringLiteral("0")};
    return all;
}

// headless() with `variables` ("NAME=value" each) added.
QProcessEnvironment headlessWith(const QStringList &variables)
{
    QProcessEnvironment environment = headless();
    for (const QString &variable : variables)
        environment.insert(variable.section(QLatin1Char('='), 0, 0), variable.section(QLatin1Char('='), 1));
    return environment;
}

FinishedRun runToEnd(const QStringList &arguments, const QProcessEnvironment &environment = headless())
{
    QProcess process;
    process.setProcessEnvironment(environment);
    process.start(kBinary, QStringList{QStringLiteral("serve")} + withAmqpPort(arguments, environment));
    FinishedRun run;
    run.ended = process.waitForFinished(30000);
    run.exitCode = process.exitCode();
    run.out = process.readAllStandardOutput();
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

// A started `relaydesk serve` and its ready line.
struct Server {
    QProcess process;
    QString readyLine;
    QProcessEnvironment environment = headless();

    bool start(const QStringList &arguments)
    {
        process.setProcessEnvironment(environment);
        process.start(kBinary, QStringList{QStringLiteral("serve")} + withAmqpPort(arguments, environment));
        if (!process.waitForStarted())
            return false;
        while (!process.canReadLine()) {
            if (!process.waitForReadyRead(30000))
                return false;
        }
        readyLine = QString::fromUtf8(process.readLine()).trimmed();
        return true;
    }
    quint16 port() const { return readyLine.section(QLatin1Char(':'), -1).toUShort(); }
    // SIGTERM; whether it ended with exit code 0 within 30 s.
    bool stopsCleanly()
    {
        process.terminate();
        return process.waitForFinished(30000) && process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
    }
};

// One HTTP/1.1 request on a fresh connection; the whole response text.
QByteArray http(quint16 port, const QByteArray &method, const QByteArray &path, const QByteArray &body = {},
                const QByteArray &host = "localhost")
{
    QTcpSocket socket;
    socket.connectToHost(QStringLiteral("127.0.0.1"), port);
    if (!socket.waitForConnected(30000))
        return {};
    socket.write(method + ' ' + path + " HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\n"
                 "Connection: close\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body);
    // Until the whole body the Content-Length announces is there.
    QByteArray response;
    while (socket.waitForReadyRead(30000)) {
        response += socket.readAll();
        const qsizetype headerEnd = response.indexOf("\r\n\r\n");
        if (headerEnd < 0)
            continue;
        const QRegularExpressionMatch length =
            QRegularExpression(QStringLiteral("Content-Length: (\\d+)"), QRegularExpression::CaseInsensitiveOption)
                .match(QString::fromLatin1(response.left(headerEnd)));
        if (length.hasMatch() && response.size() - headerEnd - 4 >= length.captured(1).toLongLong())
            break;
    }
    return response;
}

// The receives waiting on `queue` now, as the broker counts them
// (GET /api/v1/queues/NAME `waitingReceives`); -1 when it does not answer so.
int waitingReceives(quint16 port, const QByteArray &queue)
{
    const QByteArray response = http(port, "GET", "/api/v1/queues/" + queue);
    const QJsonValue waiting = QJsonDocument::fromJson(response.mid(response.indexOf("\r\n\r\n") + 4))["waitingReceives"];
    return waiting.isDouble() ? waiting.toInt() : -1;
}

// Whether `count` receives came to wait on `queue`; the bound only ends a hang.
bool awaitWaitingReceives(quint16 port, const QByteArray &queue, int count)
{
    const QDeadlineTimer bound(60000);
    while (waitingReceives(port, queue) != count) {
        if (bound.hasExpired())
            return false;
    }
    return true;
}

} // namespace

class ServeCliTest final : public QObject {
    Q_OBJECT

private slots:
    void help_printsOptionsAndExitsZero()
    {
        const FinishedRun run = runToEnd({QStringLiteral("--help")});
        QVERIFY(run.ended);
        QCOMPARE(run.exitCode, 0);
        const QString out = QString::fromUtf8(run.out);
        for (const char *option : {"--db", "--bind", "--port", "--config", "--clock", "--time-scale", "--jitter",
                                   "--seed", "--request-timeout", "--ca-file", "--auto-confirm", "--region", "--account",
                                   "--advertised-url", "--allow-host", "--credentials", "--ready-file", "RELAYDESK_ALLOW_HOST"})
            QVERIFY2(out.contains(QLatin1String(option)), option);
    }

    void badOption_usageErrorExitTwo_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("port too big") << QStringList{"--port", "70000"} << "--port";
        QTest::newRow("port not a number") << QStringList{"--port", "x"} << "--port";
        QTest::newRow("unknown clock") << QStringList{"--clock", "sundial"} << "--clock";
        QTest::newRow("jitter above 1") << QStringList{"--jitter", "1.5"} << "--jitter";
        QTest::newRow("time scale zero") << QStringList{"--time-scale", "0"} << "--time-scale";
        QTest::newRow("bind not an address") << QStringList{"--bind", "localhost:80"} << "--bind";
        QTest::newRow("seed not a number") << QStringList{"--seed", "-1x"} << "--seed";
        QTest::newRow("region with capitals") << QStringList{"--region", "EU-West-1"} << "--region: 'EU-West-1'";
        QTest::newRow("account too short") << QStringList{"--account", "12345"} << "--account: '12345': The account id must be 12 digits";
        QTest::newRow("advertised URL with a path") << QStringList{"--advertised-url", "http://h:1/x"} << "--advertised-url";
        QTest::newRow("advertised URL without scheme") << QStringList{"--advertised-url", "h:1"} << "--advertised-url";
        QTest::newRow("allowed host with a port") << QStringList{"--allow-host", "h:1"} << "--allow-host: 'h:1'";
        QTest::newRow("allowed host a URL") << QStringList{"--allow-host", "http://h"} << "--allow-host";
        QTest::newRow("credentials without a file") << QStringList{"--credentials", ""} << "--credentials needs a file name";
        QTest::newRow("ready file without a file") << QStringList{"--ready-file", ""} << "--ready-file needs a file name";
        QTest::newRow("AMQP port too big") << QStringList{"--amqp-port", "70000"} << "--amqp-port";
        QTest::newRow("AMQP port a word") << QStringList{"--amqp-port", "on"} << "--amqp-port: 'on'";
        QTest::newRow("AMQPS port a word") << QStringList{"--amqps-port", "on"} << "--amqps-port: 'on'";
        QTest::newRow("AMQPS port too big") << QStringList{"--amqps-port", "65536"} << "--amqps-port: '65536'";
        QTest::newRow("TLS certificate without key") << QStringList{"--tls-cert", "c.pem"} << "--tls-cert and --tls-key go together";
        QTest::newRow("management port too big") << QStringList{"--sb-management-port", "70000"} << "--sb-management-port";
        QTest::newRow("management port a word") << QStringList{"--sb-management-port", "on"}
                                                << "--sb-management-port: 'on'";
        QTest::newRow("AMQP connections zero") << QStringList{"--amqp-max-connections", "0"}
                                               << "--amqp-max-connections: '0' is not a whole number of connections";
        QTest::newRow("AMQP open timeout a duration")
            << QStringList{"--amqp-open-timeout", "30s"} << "--amqp-open-timeout: '30s' is not a whole number of seconds";
        QTest::newRow("AMQP open timeout too long") << QStringList{"--amqp-open-timeout", "3601"}
                                                    << "--amqp-open-timeout: '3601'";
        QTest::newRow("unknown option") << QStringList{"--frobnicate"} << "frobnicate";
        QTest::newRow("stray argument") << QStringList{"extra"} << "extra";
    }

    void badOption_usageErrorExitTwo()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const FinishedRun run = runToEnd(arguments);
        QVERIFY(run.ended);
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
    }

    // Every option also comes from RELAYDESK_<OPTION>; the command line wins, even
    // over a variable whose value would be refused (docs/behaviour.md §8.1).
    void environment_setsEveryOption_commandLineWins_data()
    {
        QTest::addColumn<QStringList>("variables");
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QByteArray>("host");         // the Host header of GET /health
        QTest::addColumn<QByteArrayList>("health");   // parts of its answer
        const QStringList memory{"--db", ":memory:"};
        QTest::newRow("region") << QStringList{"RELAYDESK_REGION=eu-west-1"} << memory << QByteArray("localhost")
                                << QByteArrayList{"\"region\":\"eu-west-1\""};
        QTest::newRow("account") << QStringList{"RELAYDESK_ACCOUNT=123456789012"} << memory << QByteArray("localhost")
                                 << QByteArrayList{"\"account\":\"123456789012\""};
        QTest::newRow("database") << QStringList{"RELAYDESK_DB=:memory:"} << QStringList{} << QByteArray("localhost")
                                  << QByteArrayList{"\"database\":\":memory:\""};
        QTest::newRow("allowed hosts, comma separated")
            << QStringList{"RELAYDESK_ALLOW_HOST=relaydesk, broker.ci"} << memory << QByteArray("broker.ci:9911")
            << QByteArrayList{"HTTP/1.1 200", "\"status\":\"ready\""};
        QTest::newRow("command line wins") << QStringList{"RELAYDESK_REGION=eu-west-1"}
                                           << (memory + QStringList{"--region", "ap-south-1"}) << QByteArray("localhost")
                                           << QByteArrayList{"\"region\":\"ap-south-1\""};
        QTest::newRow("command line wins over a bad value")
            << QStringList{"RELAYDESK_ACCOUNT=12345", "RELAYDESK_CLOCK=sundial"}
            << (memory + QStringList{"--account", "123456789012", "--clock", "virtual"}) << QByteArray("localhost")
            << QByteArrayList{"\"account\":\"123456789012\""};
        QTest::newRow("empty counts as unset") << QStringList{"RELAYDESK_REGION=", "RELAYDESK_ALLOW_HOST="} << memory
                                               << QByteArray("localhost") << QByteArrayList{"\"region\":\"us-east-1\""};
        QTest::newRow("flag") << QStringList{"RELAYDESK_AUTO_CONFIRM=true", "RELAYDESK_CLOCK=virtual"} << memory
                              << QByteArray("localhost") << QByteArrayList{"HTTP/1.1 200"};
    }
    void environment_setsEveryOption_commandLineWins()
    {
        QFETCH(QStringList, variables);
        QFETCH(QStringList, arguments);
        QFETCH(QByteArray, host);
        QFETCH(QByteArrayList, health);
        Server server;
        server.environment = headlessWith(variables);
        QVERIFY(server.start(QStringList{"--port", "0"} + arguments));
        const QByteArray answer = http(server.port(), "GET", "/health", {}, host);
        for (const QByteArray &part : health)
            QVERIFY2(answer.contains(part), answer.constData());
        QVERIFY(server.stopsCleanly());
    }

    // A variable's value is checked as the option's would be; the refusal names the variable.
    void environment_badValue_usageErrorNamesTheVariable_data()
    {
        QTest::addColumn<QString>("variable");
        QTest::addColumn<QString>("message");
        QTest::newRow("port") << "RELAYDESK_PORT=70000" << "RELAYDESK_PORT: '70000' is not a port number";
        QTest::newRow("AMQP port") << "RELAYDESK_AMQP_PORT=on" << "RELAYDESK_AMQP_PORT: 'on'";
        QTest::newRow("clock") << "RELAYDESK_CLOCK=sundial" << "RELAYDESK_CLOCK: 'sundial' is not real, scaled or virtual";
        QTest::newRow("bind") << "RELAYDESK_BIND=localhost:80" << "RELAYDESK_BIND: 'localhost:80' is not an IP address";
        QTest::newRow("account") << "RELAYDESK_ACCOUNT=12345" << "RELAYDESK_ACCOUNT: '12345': The account id must be 12 digits";
        QTest::newRow("advertised URL") << "RELAYDESK_ADVERTISED_URL=h:1" << "RELAYDESK_ADVERTISED_URL: 'h:1'";
        QTest::newRow("one allowed host of two") << "RELAYDESK_ALLOW_HOST=ok.example,h:1" << "RELAYDESK_ALLOW_HOST: 'h:1'";
        QTest::newRow("flag") << "RELAYDESK_AUTO_CONFIRM=maybe" << "RELAYDESK_AUTO_CONFIRM: 'maybe' is not true, false";
        QTest::newRow("jitter") << "RELAYDESK_JITTER=2" << "RELAYDESK_JITTER: '2' is not a fraction";
    }
    void environment_badValue_usageErrorNamesTheVariable()
    {
        QFETCH(QString, variable);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString database = dir.filePath(QStringLiteral("broker.db"));
        const FinishedRun run = runToEnd({"--db", database}, headlessWith({variable}));   // refused before listening
        QVERIFY(run.ended);
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
        QVERIFY2(!QFile::exists(database), "the database was created");
    }

    // --ready-file (or RELAYDESK_READY_FILE): an earlier run's file is removed at
    // start; the new one is there, whole, when the ready lines are printed, with
    // every port's URL; a clean stop removes it.
    void readyFile_writtenWhenListening_removedAtStop_data()
    {
        QTest::addColumn<bool>("fromEnvironment");
        QTest::newRow("--ready-file") << false;
        QTest::newRow("RELAYDESK_READY_FILE") << true;
    }
    void readyFile_writtenWhenListening_removedAtStop()
    {
        QFETCH(bool, fromEnvironment);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("relaydesk.ready"));
        QFile stale(path);
        QVERIFY(stale.open(QIODevice::WriteOnly));
        stale.write("{\"pid\": 1, \"http\": \"http://127.0.0.1:1\"}");   // not a raw string: moc reads // in one as a comment
        stale.close();
        Server server;
        QStringList arguments{"--port", "0", "--db", ":memory:"};
        if (fromEnvironment)
            server.environment = headlessWith({QStringLiteral("RELAYDESK_READY_FILE=") + path});
        else
            arguments << QStringLiteral("--ready-file") << path;
        QVERIFY(server.start(arguments));
        QFile written(path);
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QJsonObject ready = QJsonDocument::fromJson(written.readAll()).object();
        written.close();
        QCOMPARE(ready.value(QStringLiteral("pid")).toInteger(), server.process.processId());
        QCOMPARE(QStringLiteral("relaydesk: listening on ") + ready.value(QStringLiteral("http")).toString(), server.readyLine);
        QVERIFY2(ready.value(QStringLiteral("amqp")).toString().startsWith(QLatin1String("amqp://127.0.0.1:")),
                 qPrintable(QJsonDocument(ready).toJson()));
        QVERIFY(server.stopsCleanly());
        QVERIFY2(!QFile::exists(path), "the ready file outlived the broker");
    }

    void readyFile_cannotBeWritten_exitOne()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("no-such-folder/relaydesk.ready"));
        const FinishedRun run = runToEnd({"--port", "0", "--db", ":memory:", "--ready-file", path});
        QVERIFY(run.ended);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QStringLiteral("--ready-file: cannot write ") + path), qPrintable(run.err));
        QVERIFY(run.out.isEmpty());
    }

    // --ca-file is read before anything starts: a file that cannot serve
    // ends the command with status 1 and a message naming the option.
    void caFile_unusable_exitOneBeforeStarting_data()
    {
        QTest::addColumn<QByteArray>("content");   // empty: the file does not exist
        QTest::addColumn<QString>("message");
        QTest::newRow("missing") << QByteArray() << "--ca-file";
        QTest::newRow("not PEM") << QByteArray("just some text\n") << "no PEM certificate";
        QTest::newRow("a key, no certificate")
            << QByteArray("-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----\n")
            << "no PEM certificate";
    }
    void caFile_unusable_exitOneBeforeStarting()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString caFile = dir.filePath(QStringLiteral("ca.pem"));
        if (!content.isEmpty()) {
            QFile file(caFile);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(content);
        }
        const QString database = dir.filePath(QStringLiteral("broker.db"));
        const FinishedRun run = runToEnd({"--port", "0", "--db", database, "--ca-file", caFile});
        QVERIFY(run.ended);
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
        QVERIFY2(!QFile::exists(database), "the database was created before the check");
    }

    void start_printsTheReadyLines_stopsOnSigtermWithEverythingCommitted()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("broker.db"));
        Server server;
        QVERIFY(server.start({"--port", "0", "--db", file, "--clock", "virtual"}));
        QVERIFY2(QRegularExpression(QStringLiteral("^relaydesk: listening on http://127\\.0\\.0\\.1:[1-9][0-9]*$"))
                     .match(server.readyLine)
                     .hasMatch(),
                 qPrintable(server.readyLine));
        const QByteArray created = http(server.port(), "POST", "/api/v1/queues", R"({"name": "kept"})");
        QVERIFY2(created.startsWith("HTTP/1.1 201"), created.constData());
        const QByteArray sent = http(server.port(), "POST", "/api/v1/queues/kept/messages", R"({"body": "stays"})");
        QVERIFY2(sent.startsWith("HTTP/1.1 201"), sent.constData());

        server.process.terminate();   // SIGTERM
        QVERIFY(server.process.waitForFinished(30000));
        QCOMPARE(server.process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(server.process.exitCode(), 0);
        // the Service Bus ready lines (AMQP, then the management API; docs/behaviour.md §8.6), then nothing
        const QString rest = QString::fromUtf8(server.process.readAllStandardOutput());
        QVERIFY2(QRegularExpression(QStringLiteral("^relaydesk: listening on amqp://127\\.0\\.0\\.1:[1-9][0-9]*\n"
                                                   "relaydesk: listening on https://127\\.0\\.0\\.1:[1-9][0-9]*\n$"))
                     .match(rest)
                     .hasMatch(),
                 qPrintable(rest));

        auto db = relaydesk::Database::open(file.toStdString());
        QVERIFY2(db.ok(), db.status().toString().c_str());
        QCOMPARE(*(*db)->queryInt64("SELECT count(*) FROM messages WHERE body = 'stays'"), 1);
    }

    // SIGHUP (a closed terminal) stops the broker like SIGTERM; SIGUSR1,
    // SIGUSR2 and SIGPIPE are ignored: it keeps answering.
    void signals_stopOrAreIgnored_data()
    {
        QTest::addColumn<int>("signal");
        QTest::addColumn<bool>("stops");
        QTest::newRow("SIGHUP") << int(SIGHUP) << true;
        QTest::newRow("SIGINT") << int(SIGINT) << true;
        QTest::newRow("SIGUSR1") << int(SIGUSR1) << false;
        QTest::newRow("SIGUSR2") << int(SIGUSR2) << false;
        QTest::newRow("SIGPIPE") << int(SIGPIPE) << false;
    }
    void signals_stopOrAreIgnored()
    {
        QFETCH(int, signal);
        QFETCH(bool, stops);
        Server server;
        QVERIFY(server.start({"--port", "0", "--db", ":memory:"}));
        QCOMPARE(::kill(static_cast<pid_t>(server.process.processId()), signal), 0);
        if (stops) {
            QVERIFY(server.process.waitForFinished(30000));
            QCOMPARE(server.process.exitStatus(), QProcess::NormalExit);
            QCOMPARE(server.process.exitCode(), 0);
            return;
        }
        const QByteArray health = http(server.port(), "GET", "/health");
        QVERIFY2(health.startsWith("HTTP/1.1 200"), health.constData());
        QVERIFY(server.stopsCleanly());
    }

    // The Service Bus connection string names "localhost", which node 18
    // resolves to ::1 first: the AMQP port answers on the IPv6 loopback too.
    void amqpPort_answersOnBothLoopbacks()
    {
        QTcpServer probe;
        if (!probe.listen(QHostAddress::LocalHostIPv6, 0))
            QSKIP("this machine has no IPv6 loopback");
        probe.close();
        Server server;
        QVERIFY(server.start({"--port", "0", "--db", ":memory:"}));
        while (!server.process.canReadLine())
            QVERIFY(server.process.waitForReadyRead(30000));
        const QString amqp = QString::fromUtf8(server.process.readLine()).trimmed();
        const quint16 port = amqp.section(QLatin1Char(':'), -1).toUShort();
        QVERIFY2(amqp.startsWith(QLatin1String("relaydesk: listening on amqp://")) && port > 0, qPrintable(amqp));
        for (const QHostAddress &loopback : {QHostAddress(QHostAddress::LocalHost), QHostAddress(QHostAddress::LocalHostIPv6)}) {
            QTcpSocket socket;
            socket.connectToHost(loopback, port);
            QVERIFY2(socket.waitForConnected(30000), qPrintable(loopback.toString() + ": " + socket.errorString()));
        }
        QVERIFY(server.stopsCleanly());
    }

    // The serve process's threads carry names (`top -H`, per-thread CPU in the benchmarks).
    void threads_named()
    {
        Server server;
        QVERIFY(server.start({"--port", "0", "--db", ":memory:"}));
        const auto threadNames = [&] {
            QStringList names;
            const QDir tasks(QStringLiteral("/proc/%1/task").arg(server.process.processId()));
            for (const QString &task : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
                QFile comm(tasks.filePath(task + QStringLiteral("/comm")));
                if (comm.open(QIODevice::ReadOnly))
                    names.append(QString::fromUtf8(comm.readAll()).trimmed());
            }
            return names;
        };
        // A thread names itself as it starts: wait for it rather than for a ready line.
        QTRY_VERIFY2_WITH_TIMEOUT(threadNames().contains(QStringLiteral("relaydesk-amqp")),
                                  qPrintable(threadNames().join(u',')), 30000);
        QVERIFY2(threadNames().contains(QStringLiteral("relaydesk-broke")), qPrintable(threadNames().join(u',')));
        QVERIFY(server.stopsCleanly());
    }

    // The third ready line is the Service Bus management API's, and it answers there.
    void managementPort_readyLineAndNamespace()
    {
        Server server;
        QVERIFY(server.start({"--port", "0", "--db", ":memory:"}));
        QStringList lines;
        while (lines.size() < 2) {
            while (!server.process.canReadLine())
                QVERIFY(server.process.waitForReadyRead(30000));
            lines << QString::fromUtf8(server.process.readLine()).trimmed();
        }
        QVERIFY2(lines[0].startsWith(QLatin1String("relaydesk: listening on amqp://")), qPrintable(lines[0]));
        QVERIFY2(lines[1].startsWith(QLatin1String("relaydesk: listening on https://127.0.0.1:")), qPrintable(lines[1]));
        const quint16 port = lines[1].section(QLatin1Char(':'), -1).toUShort();
        const QByteArray namespaceInfo = http(port, "GET", "/$namespaceinfo?api-version=2021-05");
        QVERIFY2(namespaceInfo.startsWith("HTTP/1.1 200") && namespaceInfo.contains("<MessagingSKU>Standard</MessagingSKU>"),
                 namespaceInfo.constData());
        QVERIFY(server.stopsCleanly());
    }

    void amqpPortOff_onlyTheHttpReadyLine()
    {
        Server server;
        QVERIFY(server.start({"--port", "0", "--db", ":memory:", "--amqp-port", "off", "--sb-management-port", "off"}));
        QVERIFY2(server.readyLine.startsWith(QLatin1String("relaydesk: listening on http://")), qPrintable(server.readyLine));
        server.process.terminate();
        QVERIFY(server.process.waitForFinished(30000));
        QCOMPARE(server.process.exitCode(), 0);
        QVERIFY(server.process.readAllStandardOutput().isEmpty());
    }

    // --amqps-port: the third ready line, with the local CA's certificate
    // (made in the data folder); then the user's own files, checked before
    // anything starts.
    void amqps_readyLine_ownCertificateChecked_data()
    {
        QTest::addColumn<QString>("certificate");   // in the local CA's folder
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("problem");       // empty: it starts
        QTest::newRow("the local CA's own") << QString() << QString() << QString();
        QTest::newRow("own files that match") << "server.pem" << "server-key.pem" << QString();
        QTest::newRow("a key of another certificate") << "relaydesk-ca.pem" << "server-key.pem"
                                                      << "not the private key of the certificate";
        QTest::newRow("a missing certificate") << "none.pem" << "server-key.pem" << "--tls-cert";
    }
    void amqps_readyLine_ownCertificateChecked()
    {
        QFETCH(QString, certificate);
        QFETCH(QString, key);
        QFETCH(QString, problem);
        QTemporaryDir data;
        QProcessEnvironment environment = headless();
        environment.insert(QStringLiteral("XDG_DATA_HOME"), data.path());
        const QString folder = data.path() + QStringLiteral("/Relaydesk/Relaydesk/tls/");
        QStringList arguments{"--port", "0", "--db", ":memory:", "--amqps-port", "0"};
        if (!certificate.isEmpty()) {
            Server local; // makes the CA and the server certificate
            local.environment = environment;
            QVERIFY(local.start(arguments));
            QVERIFY(local.stopsCleanly());
            arguments += {"--tls-cert", folder + certificate, "--tls-key", folder + key};
        }
        if (!problem.isEmpty()) {
            const FinishedRun run = runToEnd(arguments, environment);
            QVERIFY(run.ended);
            QCOMPARE(run.exitCode, 1);
            QVERIFY2(run.err.contains(problem), qPrintable(run.err));
            return;
        }
        Server server;
        server.environment = environment;
        QVERIFY(server.start(arguments));
        QString output;
        while (!output.contains(QLatin1String("relaydesk: listening on amqps://127.0.0.1:"))) {
            if (server.process.bytesAvailable() == 0)
                QVERIFY2(server.process.waitForReadyRead(30000), qPrintable(output));
            output += QString::fromUtf8(server.process.readAllStandardOutput());
        }
        QVERIFY(QFile::exists(folder + QStringLiteral("relaydesk-ca.pem")));
        QVERIFY(server.stopsCleanly());
    }

    void amqpPortTaken_exitOne()
    {
        Server first;
        QVERIFY(first.start({"--port", "0", "--db", ":memory:"}));   // a free AMQP port (withAmqpPort)
        while (!first.process.canReadLine())
            QVERIFY(first.process.waitForReadyRead(30000));
        const QString amqp = QString::fromUtf8(first.process.readLine()).trimmed();
        const QString port = amqp.section(QLatin1Char(':'), -1);
        QVERIFY2(amqp.startsWith(QLatin1String("relaydesk: listening on amqp://")) && port.toUInt() > 0, qPrintable(amqp));
        const FinishedRun second = runToEnd({"--port", "0", "--db", ":memory:", "--amqp-port", port});
        QVERIFY(second.ended);
        QCOMPARE(second.exitCode, 1);
        QVERIFY2(second.err.contains(QLatin1String("cannot listen for AMQP")), qPrintable(second.err));
        first.process.terminate();
        QVERIFY(first.process.waitForFinished(30000));
    }

    void noDbOption_usesTheApplicationDataFolder()
    {
        QTemporaryDir home;
        QProcessEnvironment environment = headless();
        environment.insert(QStringLiteral("HOME"), home.path());
        environment.remove(QStringLiteral("XDG_DATA_HOME"));
        Server server;
        server.process.setProcessEnvironment(environment);
        server.process.start(kBinary, {"serve", "--port", "0", "--amqp-port", "0", "--amqps-port", "off", "--sb-management-port", "0"});
        QVERIFY(server.process.waitForStarted());
        while (!server.process.canReadLine())
            QVERIFY(server.process.waitForReadyRead(30000));
        QVERIFY(QFile::exists(home.filePath(QStringLiteral(".local/share/Relaydesk/Relaydesk/relaydesk.db"))));
        server.process.terminate();
        QVERIFY(server.process.waitForFinished(30000));
        QCOMPARE(server.process.exitCode(), 0);
    }

    void secondServerOnTheSameFile_refusedExitOne()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("busy.db"));
        Server first;
        QVERIFY(first.start({"--port", "0", "--db", file}));
        const FinishedRun second = runToEnd({"--port", "0", "--db", file});
        QVERIFY(second.ended);
        QCOMPARE(second.exitCode, 1);
        QVERIFY2(second.err.contains(QLatin1String("in use")), qPrintable(second.err));
        first.process.terminate();
        QVERIFY(first.process.waitForFinished(30000));
        QCOMPARE(first.process.exitCode(), 0);
    }

    void bindBeyondLoopback_printsWarning()
    {
        Server server;
        QVERIFY(server.start({"--port", "0", "--db", ":memory:", "--bind", "0.0.0.0"}));
        // Where a client on this machine reaches it: never the wildcard address.
        QVERIFY2(server.readyLine.startsWith(QLatin1String("relaydesk: listening on http://127.0.0.1:")),
                 qPrintable(server.readyLine));
        const QByteArray created = http(server.port(), "POST", "/api/v1/queues", R"({"name": "jobs"})");
        QVERIFY2(created.contains("\"url\":\"http://localhost/000000000000/jobs\""), created.constData());
        server.process.terminate();
        QVERIFY(server.process.waitForFinished(30000));
        const QString err = QString::fromUtf8(server.process.readAllStandardError());
        QVERIFY2(err.contains(QLatin1String("warning")), qPrintable(err));
    }

    // GET /health through the real port: 200 once the ready line is out,
    // with the identity the options gave.
    void health_readyWithRegionAndAccount()
    {
        Server server;
        QVERIFY(server.start({"--port", "0", "--db", ":memory:", "--region", "eu-west-1", "--account", "123456789012"}));
        const QByteArray health = http(server.port(), "GET", "/health");
        QVERIFY2(health.startsWith("HTTP/1.1 200"), health.constData());
        for (const char *part : {"\"status\":\"ready\"", "\"region\":\"eu-west-1\"", "\"account\":\"123456789012\"",
                                 "\"database\":\":memory:\""})
            QVERIFY2(health.contains(part), part);
        const QByteArray created = http(server.port(), "POST", "/api/v1/topics", R"({"name": "events"})");
        QVERIFY2(created.contains("arn:aws:sns:eu-west-1:123456789012:events"), created.constData());
        QVERIFY(server.stopsCleanly());
    }

    // The config file's "region"/"account" start the broker with them; a
    // --region that contradicts the file is refused before anything starts.
    void configFileIdentity_usedOrContradictionRefused()
    {
        QTemporaryDir dir;
        const QString config = dir.filePath(QStringLiteral("broker.json"));
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"region": "ap-south-1", "account": "123456789012", "topics": [{"name": "events"}]})");
        file.close();
        const FinishedRun refused = runToEnd({"--port", "0", "--db", ":memory:", "--config", config, "--region", "eu-west-1"});
        QVERIFY(refused.ended);
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains(QLatin1String("region: the file is for region ap-south-1 but this broker runs with eu-west-1")),
                 qPrintable(refused.err));

        Server server;
        QVERIFY(server.start({"--port", "0", "--db", ":memory:", "--config", config}));
        const QByteArray topics = http(server.port(), "GET", "/api/v1/topics");
        QVERIFY2(topics.contains("arn:aws:sns:ap-south-1:123456789012:events"), topics.constData());
        QVERIFY(server.stopsCleanly());
    }

    void portInUse_exitOneWithMessage()
    {
        Server first;
        QVERIFY(first.start({"--port", "0", "--db", ":memory:"}));
        const FinishedRun second = runToEnd({"--port", QString::number(first.port()), "--db", ":memory:"});
        QVERIFY(second.ended);
        QCOMPARE(second.exitCode, 1);
        QVERIFY(second.err.contains(QLatin1String("cannot listen")));
        first.process.terminate();
        QVERIFY(first.process.waitForFinished(30000));
    }

    void oversizedBody_refused413_andNothingCreated()
    {
        Server server;
        QVERIFY(server.start({"--port", "0", "--db", ":memory:"}));
        const QByteArray big = "{\"name\": \"big\", \"padding\": \"" + QByteArray(5 * 1024 * 1024, 'x') + "\"}";
        const QByteArray refused = http(server.port(), "POST", "/api/v1/queues", big);
        QVERIFY2(refused.startsWith("HTTP/1.1 413"), refused.left(200).constData());
        QVERIFY(refused.contains("RequestEntityTooLarge"));
        const QByteArray listed = http(server.port(), "GET", "/api/v1/queues");
        QVERIFY2(listed.endsWith(R"({"queues":[]})"), listed.constData());
        server.process.terminate();
        QVERIFY(server.process.waitForFinished(30000));
        QCOMPARE(server.process.exitCode(), 0);
    }

    // a waiting receive whose client reset its connection is
    // withdrawn; the later send is not taken by it (no receive counted).
    void clientGoneMidLongPoll_laterSendIsNotTaken()
    {
        Server server;
        QVERIFY(server.start({"--port", "0", "--db", ":memory:", "--clock", "virtual"}));
        QVERIFY(http(server.port(), "POST", "/api/v1/queues", R"({"name": "polled"})").startsWith("HTTP/1.1 201"));
        const QByteArray receive =
            R"({"QueueUrl": "/000000000000/polled", "WaitTimeSeconds": 20})";
        {
            QTcpSocket poller;
            poller.connectToHost(QStringLiteral("127.0.0.1"), server.port());
            QVERIFY(poller.waitForConnected(30000));
            poller.write("POST / HTTP/1.1\r\nHost: localhost\r\nX-Amz-Target: AmazonSQS.ReceiveMessage\r\n"
                         "Content-Type: application/x-amz-json-1.0\r\nContent-Length: " +
                         QByteArray::number(receive.size()) + "\r\n\r\n" + receive);
            QVERIFY(poller.waitForBytesWritten(30000));
            // The receive waits on the broker; the clock stands still, so it still does when the client goes.
            QVERIFY(awaitWaitingReceives(server.port(), "polled", 1));
            const linger reset{1, 0};
            ::setsockopt(int(poller.socketDescriptor()), SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
            poller.abort();
        }
        QVERIFY(awaitWaitingReceives(server.port(), "polled", 0)); // the reset was seen: withdrawn
        QVERIFY(http(server.port(), "POST", "/api/v1/queues/polled/messages", R"({"body": "kept"})").startsWith("HTTP/1.1 201"));
        const QByteArray browsed = http(server.port(), "GET", "/api/v1/queues/polled/messages");
        QVERIFY2(browsed.contains(R"("body":"kept")") && browsed.contains(R"("state":"available")") &&
                     browsed.contains(R"("receiveCount":0)"),
                 browsed.constData());
        server.process.terminate();
        QVERIFY(server.process.waitForFinished(30000));
        QCOMPARE(server.process.exitCode(), 0);
    }

    void garbageAndHalfRequests_serverKeepsAnswering()
    {
        Server server;
        QVERIFY(server.start({"--port", "0", "--db", ":memory:"}));
        {
            QTcpSocket garbage;
            garbage.connectToHost(QStringLiteral("127.0.0.1"), server.port());
            QVERIFY(garbage.waitForConnected(30000));
            garbage.write("\x01\x02 not http at all\r\n\r\n");
            garbage.waitForBytesWritten(30000);
            QTcpSocket half;
            half.connectToHost(QStringLiteral("127.0.0.1"), server.port());
            QVERIFY(half.waitForConnected(30000));
            half.write("POST /api/v1/queues HTTP/1.1\r\nContent-Length: 100\r\n\r\n{\"na");
            half.waitForBytesWritten(30000);
        }   // both dropped mid-request
        const QByteArray clock = http(server.port(), "GET", "/api/v1/clock");
        QVERIFY2(clock.startsWith("HTTP/1.1 200"), clock.constData());
        server.process.terminate();
        QVERIFY(server.process.waitForFinished(30000));
        QCOMPARE(server.process.exitCode(), 0);
    }
};

RELAYDESK_TEST_MAIN(ServeCliTest)
#include "serve_cli_test.moc"
