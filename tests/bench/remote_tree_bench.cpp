// SPDX-License-Identifier: MIT
// remote_tree_bench: the window's tree listing a remote connection with many
// queues (docs/figures.md "Remote connections"): QUEUES queues made on
// `relaydesk serve` in a process of its own, then ROUNDS times the tree's row
// of an AWS profile (endpoint_url) and of a Relaydesk connection listed again
// as List Again does (EntityTreeModel over ConnectionRegistry, in the
// window's own EntityTreePanel, shown). Prints per listing the wall time until the rows are in the
// model, the longest the GUI thread's event loop went without running a 5 ms
// timer meanwhile (how long the window was frozen) and the CPU time the GUI
// thread spent (a gap well above it was the machine's other load), then the
// time of one repaint of the tree with the rows in it.
//
//   QT_QPA_PLATFORM=offscreen remote_tree_bench RELAYDESK_BINARY QUEUES [ROUNDS]
#include "connections/aws_connection.h"
#include "connections/aws_profiles.h"
#include "models/connection_registry.h"
#include "models/entity_tree_model.h"
#include "views/entity_tree_panel.h"
#include "support/server_process.h"
#include "connection_bench_support.h"

#include <QApplication>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QAbstractProxyModel>
#include <QTreeView>

#include <ctime>

using namespace relaydesk;
using namespace relaydesk::bench;

namespace {

int fail(const QString &what)
{
    std::fprintf(stderr, "remote_tree_bench: %s\n", qPrintable(what));
    return 1;
}

// CPU time of this thread so far: a loop gap far above the CPU the listing took is another process's.
qint64 threadCpuMs()
{
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return qint64(now.tv_sec) * 1000 + now.tv_nsec / 1000000;
}

bool writeFile(const QString &path, const QString &text)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(text.toUtf8()) >= 0;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    if (argc < 3)
        return fail(QStringLiteral("usage: remote_tree_bench RELAYDESK_BINARY QUEUES [ROUNDS]"));
    const int queues = QString::fromUtf8(argv[2]).toInt();
    const int rounds = argc > 3 ? QString::fromUtf8(argv[3]).toInt() : 3;

    test::ServerProcess server;
    const QString url = startServe(server, QString::fromUtf8(argv[1]));
    if (url.isEmpty())
        return fail(QStringLiteral("serve did not start: ") + server.errors());

    // The window's settings and the AWS files in a folder of the run's own.
    QTemporaryDir settings;
    QStandardPaths::setTestModeEnabled(true);
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings.path());
    const QString config = settings.filePath(QStringLiteral("aws-config"));
    const QString credentials = settings.filePath(QStringLiteral("aws-credentials"));
    if (!writeFile(config, QStringLiteral("[profile bench]\nregion = us-east-1\nendpoint_url = %1\n").arg(url)) ||
        !writeFile(credentials, QStringLiteral("[bench]\naws_access_key_id = bench\naws_secret_access_key = bench\n")))
        return fail(QStringLiteral("cannot write the AWS files"));
    qputenv("AWS_CONFIG_FILE", config.toUtf8());
    qputenv("AWS_SHARED_CREDENTIALS_FILE", credentials.toUtf8());

    AwsConnection aws(*readAwsProfiles(QStringLiteral("[profile bench]\nendpoint_url = %1\n").arg(url),
                                       QStringLiteral("[bench]\naws_access_key_id = bench\naws_secret_access_key = bench\n"))
                           .find(QStringLiteral("bench")));
    QElapsedTimer clock;
    clock.start();
    if (!inParallel(queues, 32, [&](int i, std::function<void(bool)> done) {
            aws.createEntity(EntityKind::Queue, QStringLiteral("q%1").arg(i, 6, 10, QLatin1Char('0')), {}, {},
                             [done](ConnectionResult<EntityRef> r) { done(r.ok); });
        }))
        return fail(QStringLiteral("creating the queues failed"));
    report("create queues (32 in flight)", clock.elapsed(), 0, QStringLiteral("%1 queues").arg(queues));

    EntityTreeModel model(nullptr, BrokerIdentity{});
    ConnectionRegistry registry;
    ConnectionSettings shared;
    shared.kind = ConnectionSettings::Kind::Relaydesk;
    shared.name = QStringLiteral("shared");
    shared.endpointUrl = url;
    const QString added = registry.add(shared);
    if (!added.isEmpty())
        return fail(QStringLiteral("adding the Relaydesk connection: ") + added);
    model.setConnections(&registry);
    EntityTreePanel panel;   // the window's tree: its proxy, its view's settings
    panel.setModel(&model);
    panel.resize(480, 800);
    panel.show();
    QTreeView &tree = *panel.treeView();

    QString loadedId;
    QObject::connect(&model, &EntityTreeModel::connectionLoaded, [&loadedId](const QString &id) { loadedId = id; });
    LoopWatch watch;
    for (int round = 0; round < rounds; ++round) {
        for (const QString &id : {QStringLiteral("aws:bench"), QStringLiteral("window:shared")}) {
            const QModelIndex row = model.connectionIndex(id);
            const auto *proxy = static_cast<const QAbstractProxyModel *>(tree.model());
            if (!row.isValid())
                return fail(QStringLiteral("no row for ") + id);
            loadedId.clear();
            const qint64 cpuBefore = threadCpuMs();
            clock.restart();
            watch.start();
            if (round == 0)
                tree.expand(proxy->mapFromSource(row));   // the first listing: what a click on the arrow does
            else
                model.reloadConnection(row);   // List Again
            runUntil([&] { return loadedId == id; });
            const qint64 frozen = watch.stop();
            const qint64 listed = clock.elapsed();
            const int rows = model.rowCount(model.connectionIndex(id));
            report(id == QLatin1String("aws:bench") ? "tree lists queues, AWS profile" : "tree lists queues, Relaydesk connection",
                   listed, frozen, QStringLiteral("%1 rows under the connection, GUI thread CPU %2 ms").arg(rows).arg(threadCpuMs() - cpuBefore));
            clock.restart();
            tree.viewport()->repaint();
            report("  one repaint of the tree", clock.elapsed(), 0, {});
        }
    }
    return 0;
}
