// SPDX-License-Identifier: MIT
// `relaydesk policy render` (docs/behaviour.md §8.1), run in-process: PNG and SVG of the
// requested size, different policies give different pixels, the exit
// statuses 0 / 1 (invalid or unreadable input, unwritable output) / 2 (usage).
#include "charts/policy_render_command.h"
#include "support/test_main.h"

#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <cstdio>

using namespace relaydesk;

namespace {

struct Run {
    int status = -1;
    QString out;
    QString err;
};

QString readAll(FILE *file)
{
    std::rewind(file);
    QByteArray bytes;
    char buffer[4096];
    size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0)
        bytes.append(buffer, qsizetype(n));
    std::fclose(file);
    return QString::fromUtf8(bytes);
}

Run render(const QStringList &arguments)
{
    FILE *out = std::tmpfile();
    FILE *err = std::tmpfile();
    Run run;
    run.status = runPolicyRenderCommand(QStringList{QStringLiteral("render")} + arguments, out, err);
    run.out = readAll(out);
    run.err = readAll(err);
    return run;
}

void writeFile(const QString &path, const QByteArray &text)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
}

// Share of pixels that differ between two images of the same size.
double differingShare(const QImage &a, const QImage &b)
{
    const QImage x = a.convertToFormat(QImage::Format_ARGB32);
    const QImage y = b.convertToFormat(QImage::Format_ARGB32);
    qint64 differing = 0;
    for (int row = 0; row < x.height(); ++row) {
        const auto *p = reinterpret_cast<const QRgb *>(x.constScanLine(row));
        const auto *q = reinterpret_cast<const QRgb *>(y.constScanLine(row));
        for (int col = 0; col < x.width(); ++col)
            differing += p[col] != q[col];
    }
    return double(differing) / (double(x.width()) * x.height());
}

QSize svgSize(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QXmlStreamReader xml(&file);
    while (xml.readNextStartElement()) {
        if (xml.name() == QLatin1String("svg")) {
            const QXmlStreamAttributes attributes = xml.attributes();
            bool okW = false;
            bool okH = false;
            const int w = attributes.value(QLatin1String("width")).toInt(&okW);
            const int h = attributes.value(QLatin1String("height")).toInt(&okH);
            return okW && okH ? QSize(w, h) : QSize();
        }
    }
    return {};
}

} // namespace

class PolicyRenderTest final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void png_hasRequestedSize_data()
    {
        QTest::addColumn<QStringList>("sizeArguments");
        QTest::addColumn<QSize>("size");
        QTest::newRow("default 1200x700") << QStringList{} << QSize(1200, 700);
        QTest::newRow("800x500") << QStringList{QStringLiteral("--size"), QStringLiteral("800x500")} << QSize(800, 500);
        QTest::newRow("1920x1080") << QStringList{QStringLiteral("--size"), QStringLiteral("1920x1080")}
                                   << QSize(1920, 1080);
    }

    void png_hasRequestedSize()
    {
        QFETCH(QStringList, sizeArguments);
        QFETCH(QSize, size);
        const QString path = m_dir.filePath(QStringLiteral("size.png"));
        const Run run = render(
            QStringList{QStringLiteral("--preset"), QStringLiteral("sns-aws-managed"), QStringLiteral("--out"), path}
            + sizeArguments);
        QVERIFY2(run.status == 0, qPrintable(run.err));
        QCOMPARE(run.out,
                 QStringLiteral("relaydesk: wrote %1 (%2x%3)\n").arg(path).arg(size.width()).arg(size.height()));
        const QImage image(path);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), size);
    }

    void svg_hasRequestedSize()
    {
        const QString path = m_dir.filePath(QStringLiteral("chart.svg"));
        const Run run = render({QStringLiteral("--preset"), QStringLiteral("sns-example"), QStringLiteral("--out"),
                                path, QStringLiteral("--size"), QStringLiteral("1000x600"),
                                QStringLiteral("--compare-preset"), QStringLiteral("sns-customer-managed")});
        QVERIFY2(run.status == 0, qPrintable(run.err));
        QCOMPARE(svgSize(path), QSize(1000, 600));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray svg = file.readAll();
        QVERIFY(svg.contains("viewBox=\"0 0 1000 600\""));
        QVERIFY(svg.contains("sns-customer-managed")); // text stays text
        QVERIFY(svg.contains("postBackoff"));
    }

    void differentPolicies_giveDifferentImages()
    {
        const QString example = m_dir.filePath(QStringLiteral("example.png"));
        const QString again = m_dir.filePath(QStringLiteral("example-again.png"));
        const QString other = m_dir.filePath(QStringLiteral("default.png"));
        const QString compared = m_dir.filePath(QStringLiteral("compared.png"));
        QCOMPARE(render({QStringLiteral("--preset"), QStringLiteral("sns-example"), QStringLiteral("--out"), example})
                     .status,
                 0);
        QCOMPARE(
            render({QStringLiteral("--preset"), QStringLiteral("sns-example"), QStringLiteral("--out"), again}).status,
            0);
        QCOMPARE(
            render({QStringLiteral("--preset"), QStringLiteral("sns-default"), QStringLiteral("--out"), other}).status,
            0);
        QCOMPARE(render({QStringLiteral("--preset"), QStringLiteral("sns-example"), QStringLiteral("--out"), compared,
                         QStringLiteral("--compare-preset"), QStringLiteral("sns-customer-managed")})
                     .status,
                 0);
        const QImage a(example);
        // The same policy draws the same pixels, so a difference means something.
        QCOMPARE(differingShare(a, QImage(again)), 0.0);
        const double policyChange = differingShare(a, QImage(other));
        QVERIFY2(policyChange > 0.02, qPrintable(QString::number(policyChange)));
        const double overlay = differingShare(a, QImage(compared));
        QVERIFY2(overlay > 0.01, qPrintable(QString::number(overlay)));
    }

    void policyFile_isRendered()
    {
        const QString policy = m_dir.filePath(QStringLiteral("custom.json"));
        writeFile(policy, R"({"healthyRetryPolicy": {"numRetries": 12, "numNoDelayRetries": 2, "minDelayTarget": 5,
                              "maxDelayTarget": 120, "backoffFunction": "geometric"}})");
        const QString path = m_dir.filePath(QStringLiteral("custom.png"));
        const Run run =
            render({policy, QStringLiteral("--out"), path, QStringLiteral("--size"), QStringLiteral("640x400")});
        QVERIFY2(run.status == 0, qPrintable(run.err));
        QCOMPARE(QImage(path).size(), QSize(640, 400));
    }

    void protocol_decidesTheCap()
    {
        // 20 retries x 600 s is over the 3600 s HTTP/S cap (docs/behaviour.md §2.1) but fine for sqs.
        const QString policy = m_dir.filePath(QStringLiteral("long.json"));
        writeFile(policy, R"({"healthyRetryPolicy": {"numRetries": 20, "numMaxDelayRetries": 20,
                              "minDelayTarget": 600, "maxDelayTarget": 600}})");
        const QString path = m_dir.filePath(QStringLiteral("long.png"));
        const Run http = render({policy, QStringLiteral("--out"), path});
        QCOMPARE(http.status, 1);
        QVERIFY(!QFile::exists(path));
        const Run sqs =
            render({policy, QStringLiteral("--out"), path, QStringLiteral("--protocol"), QStringLiteral("sqs")});
        QVERIFY2(sqs.status == 0, qPrintable(sqs.err));
        QVERIFY(QFile::exists(path));
    }

    void invalidPolicy_exitsOneWithFieldErrors()
    {
        const QString policy = m_dir.filePath(QStringLiteral("invalid.json"));
        writeFile(policy, R"({"healthyRetryPolicy": {"numRetries": 3, "minDelayTaget": 5, "maxDelayTarget": 4000}})");
        const QString path = m_dir.filePath(QStringLiteral("invalid.png"));
        const Run run = render({policy, QStringLiteral("--out"), path});
        QCOMPARE(run.status, 1);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains(QStringLiteral("healthyRetryPolicy.minDelayTaget: ")), qPrintable(run.err));
        QVERIFY2(run.err.contains(QStringLiteral("healthyRetryPolicy.maxDelayTarget: ")), qPrintable(run.err));
        QVERIFY(!QFile::exists(path));
    }

    void unreadableInput_exitsOne_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing file") << "missing.json" << QByteArray() << "cannot read";
        QTest::newRow("malformed JSON") << "broken.json"
                                        << QByteArray("{\"healthyRetryPolicy\": {\n  \"numRetries\": 3,,\n}}")
                                        << "broken.json:2";
    }

    void unreadableInput_exitsOne()
    {
        QFETCH(QString, file);
        QFETCH(QByteArray, content);
        QFETCH(QString, message);
        const QString policy = m_dir.filePath(file);
        if (!content.isEmpty())
            writeFile(policy, content);
        const Run run = render({policy, QStringLiteral("--out"), m_dir.filePath(QStringLiteral("never.png"))});
        QCOMPARE(run.status, 1);
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
        QCOMPARE(run.err.count(QLatin1Char('\n')), 1); // one line
    }

    void unwritableOutput_exitsOne()
    {
        const Run run = render({QStringLiteral("--preset"), QStringLiteral("sns-default"), QStringLiteral("--out"),
                                m_dir.filePath(QStringLiteral("no/such/dir/chart.png"))});
        QCOMPARE(run.status, 1);
        QVERIFY2(run.err.startsWith(QStringLiteral("relaydesk: cannot write ")), qPrintable(run.err));
    }

    void usageErrors_exitTwo_data()
    {
        QTest::addColumn<QStringList>("arguments");
        const QString out = QStringLiteral("--out=/tmp/relaydesk-never.png");
        const QString preset = QStringLiteral("--preset=sns-default");
        QTest::newRow("unknown option") << QStringList{preset, out, QStringLiteral("--colour=red")};
        QTest::newRow("missing --out") << QStringList{preset};
        QTest::newRow("no policy") << QStringList{out};
        QTest::newRow("file and --preset") << QStringList{QStringLiteral("policy.json"), preset, out};
        QTest::newRow("two files") << QStringList{QStringLiteral("a.json"), QStringLiteral("b.json"), out};
        QTest::newRow("bad suffix") << QStringList{preset, QStringLiteral("--out=/tmp/relaydesk-never.jpg")};
        QTest::newRow("no suffix") << QStringList{preset, QStringLiteral("--out=/tmp/relaydesk-never")};
        QTest::newRow("bad size") << QStringList{preset, out, QStringLiteral("--size=1200")};
        QTest::newRow("zero size") << QStringList{preset, out, QStringLiteral("--size=0x700")};
        QTest::newRow("negative size") << QStringList{preset, out, QStringLiteral("--size=-5x700")};
        QTest::newRow("huge size") << QStringList{preset, out, QStringLiteral("--size=100000x700")};
        QTest::newRow("both comparisons") << QStringList{preset, out, QStringLiteral("--compare=a.json"),
                                                         QStringLiteral("--compare-preset=sns-example")};
        QTest::newRow("unknown preset") << QStringList{QStringLiteral("--preset=sns-nope"), out};
        QTest::newRow("unknown comparison preset") << QStringList{preset, out, QStringLiteral("--compare-preset=nope")};
        QTest::newRow("bad protocol") << QStringList{preset, out, QStringLiteral("--protocol=smtp")};
        QTest::newRow("missing value") << QStringList{preset, QStringLiteral("--out")};
    }

    void usageErrors_exitTwo()
    {
        QFETCH(QStringList, arguments);
        const Run run = render(arguments);
        QCOMPARE(run.status, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.startsWith(QStringLiteral("relaydesk: ")), qPrintable(run.err));
        QVERIFY(!QFile::exists(QStringLiteral("/tmp/relaydesk-never.png")));
    }

    void help_exitsZero()
    {
        const Run run = render({QStringLiteral("--help")});
        QCOMPARE(run.status, 0);
        QVERIFY(run.out.contains(QStringLiteral("--compare-preset")));
        QVERIFY(run.out.contains(QStringLiteral("sns-aws-managed")));
    }

private:
    QTemporaryDir m_dir;
};

RELAYDESK_TEST_MAIN(PolicyRenderTest)
#include "policy_render_test.moc"
