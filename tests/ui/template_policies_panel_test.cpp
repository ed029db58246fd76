// SPDX-License-Identifier: MIT
// File ▸ Open Template… (docs/window.md "Policies in a template"): the panel
// lists what `policy scan` finds in real templates (tests/data/templates),
// a chosen policy opens read-only with its chart and Copy as JSON, a second
// template is compared with the first, and it all works from the keyboard
// with accessible names that match the labels. Offscreen.
#include "views/main_window.h"
#include "views/template_policies_panel.h"
#include "views/template_policy_window.h"
#include "charts/policy_chart.h"
#include "support/test_main.h"
#include "window_test_support.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <nlohmann/json.hpp>

using namespace relaydesk;

namespace {

const QString kTemplates = QStringLiteral(RELAYDESK_TEST_DATA "/templates");

QStringList column(const QTreeWidget *list, int column)
{
    QStringList texts;
    for (int i = 0; i < list->topLevelItemCount(); ++i)
        texts << list->topLevelItem(i)->text(column);
    return texts;
}

QString topicWithRetries(int retries)
{
    return QStringLiteral("Resources:\n  T:\n    Type: AWS::SNS::Topic\n    Properties:\n      DeliveryPolicy:\n"
                          "        http:\n          defaultHealthyRetryPolicy:\n            numRetries: %1\n"
                          "            minDelayTarget: 20\n            maxDelayTarget: 20\n")
        .arg(retries);
}

QString queue(const QString &name, int maxReceiveCount)
{
    return QStringLiteral("  %1:\n    Type: AWS::SQS::Queue\n    Properties:\n      RedrivePolicy:\n"
                          "        deadLetterTargetArn: arn:aws:sqs:eu-west-1:1:dlq\n        maxReceiveCount: %2\n")
        .arg(name)
        .arg(maxReceiveCount);
}

QString writeFile(const QTemporaryDir &dir, const QString &name, const QString &text)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    file.write(text.toUtf8());
    return path;
}

} // namespace

class TemplatePoliciesPanelTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_settingsDir;

    // The panel on screen and active, the terraform-aws-sns plan open in it.
    static bool showWithSnsPlan(TemplatePoliciesPanel &panel)
    {
        panel.show();
        if (!QTest::qWaitForWindowExposed(&panel) || !panel.openTemplate(kTemplates + "/terraform/sns-complete.plan.json"))
            return false;
        panel.activateWindow();
        return true;
    }

private slots:
    void initTestCase() { testing::keepSettingsIn(m_settingsDir); }

    void mainWindow_fileMenuOpensTemplates()
    {
        MainWindow window;
        auto *action = window.findChild<QAction *>(QStringLiteral("openTemplateAction"));
        QVERIFY(action);
        QCOMPARE(action->text(), QStringLiteral("Open &Template…"));
        QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
        auto *file = window.findChild<QMenu *>(QStringLiteral("fileMenu"));
        QVERIFY(file && file->actions().contains(action));
        auto *panel = window.findChild<TemplatePoliciesPanel *>();
        QVERIFY(panel);
        QVERIFY(panel->isHidden());   // until a template is opened
    }

    // Each real template's rows are what `policy scan` reports for it
    // (tests/cli/policy_scan_cli_test has the same table).
    void realTemplate_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("names");
        QTest::addColumn<QStringList>("findings");
        QTest::newRow("terraform-aws-sns plan") << "terraform/sns-complete.plan.json"
                                               << QStringList{"module.complete_sns.aws_sns_topic.this[0]"}
                                               << QStringList{"1 warning"};
        QTest::newRow("AWS SQS sample") << "cloudformation/SQSStandardQueue.yaml" << QStringList{"SQSQueue"}
                                       << QStringList{"1 note"};
        QTest::newRow("Azure topic and subscription")
            << "arm/servicebus-create-topic-and-subscription.json"
            << QStringList{"[parameters('serviceBusTopicName')]/Subscriptions/[parameters('serviceBusSubscriptionName')]"}
            << QStringList{"1 note"};
        QTest::newRow("AWS SNS sample: no policy") << "cloudformation/SNSTopic.yaml" << QStringList{} << QStringList{};
    }

    void realTemplate()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, names);
        QFETCH(QStringList, findings);
        TemplatePoliciesPanel panel;
        QVERIFY(panel.openTemplate(kTemplates + "/" + file));
        QCOMPARE(column(panel.policyList(), 0), names);
        QCOMPARE(column(panel.policyList(), 2), findings);
        QVERIFY(panel.policyList()->isColumnHidden(1));   // no comparison yet
        QVERIFY2(panel.titleLabel()->text().contains(QString::number(names.size())), qPrintable(panel.titleLabel()->text()));
    }

    // Enter on a row opens it read-only: chart, findings, JSON, Copy as JSON.
    void choosingByKeyboard_opensReadOnlyWithChart()
    {
        TemplatePoliciesPanel panel;
        QVERIFY(showWithSnsPlan(panel));
        panel.policyList()->setFocus();
        QTest::keyClick(panel.policyList(), Qt::Key_Return);
        TemplatePolicyWindow *window = panel.policyWindow();
        QVERIFY(window && window->isVisible());
        QVERIFY(window->jsonView()->isReadOnly());
        const auto shown = nlohmann::json::parse(window->jsonView()->toPlainText().toStdString());
        QCOMPARE(shown["http"]["defaultHealthyRetryPolicy"]["numRetries"].get<int>(), 3);
        QVERIFY(window->chart()->isVisibleTo(window) && window->chart()->hasSchedule());
        QCOMPARE(window->chart()->schedule()->attempts(), int64_t(4));
        QVERIFY(window->findingList()->item(0)->text().startsWith("warning retry-span-short"));
        QGuiApplication::clipboard()->clear();
        QTest::mouseClick(window->copyButton(), Qt::LeftButton);
        QCOMPARE(QGuiApplication::clipboard()->text(), window->jsonView()->toPlainText());
    }

    void lifetime_hasNoChartButItsSummary()
    {
        TemplatePoliciesPanel panel;
        QVERIFY(panel.openTemplate(kTemplates + "/arm/servicebus-create-queue.json"));
        panel.showPolicy(0);
        TemplatePolicyWindow *window = panel.policyWindow();
        QVERIFY(!window->chart()->isVisibleTo(window));
        QVERIFY2(window->summaryLabel()->text().startsWith("lock 5 min, max deliveries 10"),
                 qPrintable(window->summaryLabel()->text()));
    }

    // A second template is compared with the first, as `policy scan --base` compares trees.
    void secondTemplate_compares_data()
    {
        QTest::addColumn<QString>("base");
        QTest::addColumn<QString>("head");
        QTest::addColumn<QStringList>("names");
        QTest::addColumn<QStringList>("changes");
        QTest::newRow("the same") << topicWithRetries(3) << topicWithRetries(3) << QStringList{"T"}
                                  << QStringList{"unchanged"};
        QTest::newRow("retries changed, a queue renamed")
            << topicWithRetries(3) + queue("Old", 5) << topicWithRetries(10) + queue("New", 5)
            << QStringList{"T", "New", "Old"} << QStringList{"changed", "added", "removed"};
        QTest::newRow("a redrive changed") << topicWithRetries(3) + queue("Q", 1) << topicWithRetries(3) + queue("Q", 4)
                                           << QStringList{"T", "Q"} << QStringList{"unchanged", "changed"};
    }

    void secondTemplate_compares()
    {
        QFETCH(QString, base);
        QFETCH(QString, head);
        QFETCH(QStringList, names);
        QFETCH(QStringList, changes);
        QTemporaryDir dir;
        TemplatePoliciesPanel panel;
        QVERIFY(panel.openTemplate(writeFile(dir, "main.yaml", base)));
        QVERIFY(panel.openTemplate(writeFile(dir, "pull-request.yaml", head)));
        QCOMPARE(column(panel.policyList(), 0), names);
        QCOMPARE(column(panel.policyList(), 1), changes);
        QVERIFY(!panel.policyList()->isColumnHidden(1));
        QVERIFY2(panel.titleLabel()->text().startsWith("pull-request.yaml compared with main.yaml"),
                 qPrintable(panel.titleLabel()->text()));
        const int changed = changes.indexOf("changed");
        if (changed >= 0) {
            panel.showPolicy(changed);
            QVERIFY(panel.policyWindow()->diffLabel()->isVisibleTo(panel.policyWindow()));
            QVERIFY(panel.policyWindow()->diffLabel()->text().startsWith("Changed from the base:"));
            if (names[changed] == QLatin1String("T"))
                QVERIFY(panel.policyWindow()->chart()->comparison().has_value());   // the base overlaid
        }
    }

    // A file without a template is refused with the reason; what was open stays.
    void notATemplate_isRefusedAndChangesNothing()
    {
        QTemporaryDir dir;
        TemplatePoliciesPanel panel;
        QVERIFY(panel.openTemplate(kTemplates + "/cloudformation/SQSFIFOQueue.json"));
        QString error;
        QVERIFY(!panel.openTemplate(writeFile(dir, "notes.txt", "just: words\n"), &error));
        QVERIFY2(error.contains("notes.txt holds no template or policy"), qPrintable(error));
        QVERIFY(panel.titleLabel()->text().startsWith("Not opened:"));
        QCOMPARE(column(panel.policyList(), 0), QStringList{"SQSQueue"});
        QVERIFY(panel.policyList()->isColumnHidden(1));   // not compared with anything
        panel.closeTemplates();
        QCOMPARE(panel.policyList()->topLevelItemCount(), 0);
    }

    void accessibleNames_matchLabels()
    {
        TemplatePoliciesPanel panel;
        QVERIFY(panel.openTemplate(kTemplates + "/terraform/sns-complete.plan.json"));
        panel.showPolicy(0);
        QCOMPARE(panel.policyList()->accessibleName(), QStringLiteral("Policies"));
        TemplatePolicyWindow *window = panel.policyWindow();
        QCOMPARE(window->jsonView()->accessibleName(), QStringLiteral("Policy as JSON (read-only)"));
        QCOMPARE(window->findingList()->accessibleName(), QStringLiteral("Findings"));
        QCOMPARE(window->copyButton()->text().remove('&'), QStringLiteral("Copy as JSON"));
    }

    // Tab from the list reaches the panel's buttons; in the policy's window,
    // from the findings to the JSON and on to Copy as JSON.
    void keyboard_tabReachesEverything()
    {
        TemplatePoliciesPanel panel;
        QVERIFY(showWithSnsPlan(panel));
        panel.policyList()->setFocus(Qt::TabFocusReason);
        QTest::keyClick(panel.policyList(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget()->objectName(), QStringLiteral("templateOpenButton"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget()->objectName(), QStringLiteral("templateShowButton"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Space);   // Show Policy
        TemplatePolicyWindow *window = panel.policyWindow();
        QVERIFY(window && window->isVisible());
        QVERIFY(QTest::qWaitForWindowExposed(window));
        window->activateWindow();
        window->findingList()->setFocus(Qt::TabFocusReason);
        QTest::keyClick(window->findingList(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), window->jsonView());
        QTest::keyClick(window->jsonView(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), window->copyButton());
    }
};

RELAYDESK_TEST_MAIN(TemplatePoliciesPanelTest)
#include "template_policies_panel_test.moc"
