// SPDX-License-Identifier: MIT
// template_screenshot OUTDIR [WIDTHxHEIGHT [FONTSCALE]]: the window with File ▸
// Open Template…'s panel (docs/window.md "Policies in a template"): Azure's
// topic-and-subscription quickstart and terraform-aws-sns's plan
// (tests/data/templates), then two versions of a template compared, and the
// changed topic read-only with its base overlaid. Grabs
// OUTDIR/template-*.png for a person to look at; exits 1 when a grab fails.
#include "widgets/english_plurals.h"
#include "screenshot_support.h"
#include "views/main_window.h"
#include "views/template_policies_panel.h"
#include "views/template_policy_window.h"

#include <QApplication>
#include <QFile>
#include <QTemporaryDir>

#include <cstdio>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

const QString kTemplates = QStringLiteral(RELAYDESK_TEST_DATA "/templates");

QString writeTemplate(const QTemporaryDir &dir, const QString &name, int retries, const QString &queue)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write(QStringLiteral("Resources:\n  Orders:\n    Type: AWS::SNS::Topic\n    Properties:\n      DeliveryPolicy:\n"
                              "        http:\n          defaultHealthyRetryPolicy:\n            numRetries: %1\n"
                              "            numMaxDelayRetries: %2\n            minDelayTarget: 20\n            maxDelayTarget: 300\n"
                              "  %3:\n    Type: AWS::SQS::Queue\n    Properties:\n      RedrivePolicy:\n"
                              "        deadLetterTargetArn: !GetAtt Dlq.Arn\n        maxReceiveCount: 1\n"
                              "  Dlq:\n    Type: AWS::SQS::Queue\n")
                   .arg(retries)
                   .arg(retries / 2)
                   .arg(queue)
                   .toUtf8());
    return path;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    relaydesk::installEnglishPlurals(); // as the window's main does: "1 error", not "1 error(s)"
    const ScreenshotRun run(app.arguments());
    MainWindow window;
    if (!run.show(window)) {
        std::fprintf(stderr, "template_screenshot: the window was never exposed\n");
        return 1;
    }
    auto *panel = window.findChild<TemplatePoliciesPanel *>();
    QTemporaryDir dir;
    bool ok = panel && panel->openTemplate(kTemplates + "/terraform/sqs-complete.plan.json");
    ok = ok && shootWindow(window, run.out.filePath(QStringLiteral("template-panel.png")));
    panel->closeTemplates();
    ok = ok && panel->openTemplate(writeTemplate(dir, "main.yaml", 3, QStringLiteral("Jobs")));
    ok = ok && panel->openTemplate(writeTemplate(dir, "pull-request.yaml", 12, QStringLiteral("Payments")));
    ok = ok && shootWindow(window, run.out.filePath(QStringLiteral("template-compared.png")));
    panel->showPolicy(0);
    TemplatePolicyWindow *policy = panel->policyWindow();
    ok = ok && policy && QTest::qWaitForWindowExposed(policy);
    ok = ok && shootWindow(*policy, run.out.filePath(QStringLiteral("template-policy.png")));
    return ok ? 0 : 1;
}
