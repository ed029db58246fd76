// SPDX-License-Identifier: MIT
// The delivery-policy editor: form <-> JSON sync, validation at the field and in
// the list, the chart and totals as you type, presets, form conversion, round
// trips of the three JSON forms, comparison, export, open and save.
#include "charts/policy_chart.h"
#include "policy_editor/policy_editor.h"
#include "policy_editor/policy_field_form.h"
#include "policy_editor/policy_schedule_panel.h"

#include "policy/policy_json.h"
#include "policy/policy_presets.h"
#include "policy/policy_report.h"
#include "support/test_main.h"

#include <QAction>
#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QFile>
#include <QGroupBox>
#include <QImage>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace relaydesk;
using nlohmann::json;

namespace {

json parsed(const QString &text)
{
    return json::parse(text.toStdString());
}

QString summaryOf(const RetrySchedule &schedule)
{
    return QString::fromStdString(scheduleSummary(schedule));
}

// The delays of every retry, as a comparable list (constant phases as count × delay).
QString scheduleText(const RetrySchedule &schedule)
{
    QStringList parts;
    for (const SchedulePhase &phase : schedule.phases()) {
        if (phase.phase == RetryPhase::Backoff) {
            QStringList delays;
            for (int delay : phase.delays)
                delays << QString::number(delay);
            parts << QStringLiteral("[%1]").arg(delays.join(QLatin1Char(' ')));
        } else {
            parts << QStringLiteral("%1x%2").arg(phase.retries).arg(phase.delaySeconds);
        }
    }
    return parts.join(QLatin1Char(' '));
}

QStringList issueTexts(QListWidget *list, const QString &kind)
{
    QStringList texts;
    for (int row = 0; row < list->count(); ++row) {
        if (list->item(row)->data(Qt::UserRole + 1).toString() == kind)
            texts << list->item(row)->text();
    }
    return texts;
}

} // namespace

class PolicyEditorTest final : public QObject {
    Q_OBJECT

private:
    template<typename T>
    T *child(PolicyEditor &editor, const char *name)
    {
        T *widget = editor.findChild<T *>(QString::fromLatin1(name));
        if (!widget)
            qFatal("no child %s", name);
        return widget;
    }

private slots:
    void initialState_showsValidDefaultPolicy()
    {
        PolicyEditor editor;
        QVERIFY(editor.evaluation().valid());
        PolicyChart *chart = editor.chartForTest();
        QVERIFY(chart->hasSchedule());
        QCOMPARE(chart->schedule()->retries(), int64_t(3));
        QCOMPARE(child<QLabel>(editor, "totalsLabel")->text(), summaryOf(*chart->schedule()));
        QCOMPARE(issueTexts(child<QListWidget>(editor, "issueList"), QStringLiteral("ok")).size(), 1);
    }

    void editField_updatesJsonChartAndTotals()
    {
        PolicyEditor editor;
        QSignalSpy evaluated(&editor, &PolicyEditor::evaluated);
        auto *numRetries = child<QSpinBox>(editor, "numRetries");
        numRetries->setValue(5);
        QCOMPARE(evaluated.count(), 1);

        const json document = parsed(child<QPlainTextEdit>(editor, "policyJson")->toPlainText());
        QCOMPARE(document["healthyRetryPolicy"]["numRetries"].get<int>(), 5);

        const std::optional<RetrySchedule> schedule = editor.chartForTest()->schedule();
        QVERIFY(schedule);
        QCOMPARE(schedule->retries(), int64_t(5));
        QCOMPARE(schedule->totalDelaySeconds(), int64_t(100));   // 5 linear retries 20 → 20 s
        QCOMPARE(child<QLabel>(editor, "totalsLabel")->text(), summaryOf(*schedule));
        QVERIFY(child<QLabel>(editor, "totalsLabel")->text().startsWith(QStringLiteral("6 attempts")));
        QVERIFY(!editor.chartForTest()->delayChartForTest()->series().isEmpty());

        // A number typed into the spin box counts once complete (Enter):
        // typing 12 never charts 1 on the way.
        numRetries->selectAll();
        QTest::keyClicks(numRetries, QStringLiteral("12"));
        QCOMPARE(editor.chartForTest()->schedule()->retries(), int64_t(5));
        QTest::keyClick(numRetries, Qt::Key_Return);
        QCOMPARE(parsed(editor.jsonText())["healthyRetryPolicy"]["numRetries"].get<int>(), 12);
        QCOMPARE(editor.chartForTest()->schedule()->retries(), int64_t(12));
    }

    void editOptionalSections_writesThemOnlyWhenSet()
    {
        PolicyEditor editor;
        QVERIFY(!parsed(editor.jsonText()).contains("throttlePolicy"));
        auto *noLimit = child<QCheckBox>(editor, "noLimit");
        QVERIFY(noLimit->isChecked());
        QVERIFY(!child<QSpinBox>(editor, "maxReceivesPerSecond")->isEnabled());
        noLimit->setChecked(false);
        child<QSpinBox>(editor, "maxReceivesPerSecond")->setValue(7);
        QCOMPARE(parsed(editor.jsonText())["throttlePolicy"]["maxReceivesPerSecond"].get<int>(), 7);

        auto *contentType = child<QComboBox>(editor, "headerContentType");
        QVERIFY(!contentType->accessibleName().isEmpty());
        QCOMPARE(contentType->lineEdit()->accessibleName(), contentType->accessibleName());   // AT-SPI shows it as an input
        contentType->setEditText(QStringLiteral("application/json"));
        QCOMPARE(parsed(editor.jsonText())["requestPolicy"]["headerContentType"].get<std::string>(), "application/json");
        QVERIFY(editor.evaluation().valid());
    }

    void editJson_updatesForm()
    {
        PolicyEditor editor;
        auto *pane = child<QPlainTextEdit>(editor, "policyJson");
        pane->setPlainText(QStringLiteral(R"({"healthyRetryPolicy": {"numRetries": 12, "numNoDelayRetries": 2,
            "numMinDelayRetries": 1, "numMaxDelayRetries": 4, "minDelayTarget": 3, "maxDelayTarget": 90,
            "backoffFunction": "geometric"}, "throttlePolicy": {"maxReceivesPerSecond": 4},
            "requestPolicy": {"headerContentType": "application/json"}})"));
        QCOMPARE(child<QSpinBox>(editor, "numRetries")->value(), 12);
        QCOMPARE(child<QSpinBox>(editor, "numNoDelayRetries")->value(), 2);
        QCOMPARE(child<QSpinBox>(editor, "numMinDelayRetries")->value(), 1);
        QCOMPARE(child<QSpinBox>(editor, "numMaxDelayRetries")->value(), 4);
        QCOMPARE(child<QSpinBox>(editor, "minDelayTarget")->value(), 3);
        QCOMPARE(child<QSpinBox>(editor, "maxDelayTarget")->value(), 90);
        QCOMPARE(child<QComboBox>(editor, "backoffFunction")->currentText(), QStringLiteral("geometric"));
        QVERIFY(!child<QCheckBox>(editor, "noLimit")->isChecked());
        QCOMPARE(child<QSpinBox>(editor, "maxReceivesPerSecond")->value(), 4);
        QCOMPARE(child<QComboBox>(editor, "headerContentType")->currentText(), QStringLiteral("application/json"));
        QCOMPARE(editor.chartForTest()->schedule()->retries(), int64_t(12));
        QCOMPARE(editor.chartForTest()->schedule()->phase(RetryPhase::Backoff).retries, int64_t(5));
        // The user's text is left as typed, not reformatted.
        QVERIFY(pane->toPlainText().contains(QStringLiteral("\"numRetries\": 12, \"numNoDelayRetries\"")));
    }

    void invalidValue_showsErrorAtFieldAndKeepsLastValidSchedule_data()
    {
        QTest::addColumn<QString>("document");
        QTest::addColumn<QString>("widget");
        QTest::addColumn<QString>("field");
        const auto sns = [](const char *retry) {
            return QStringLiteral(R"({"healthyRetryPolicy": {%1}})").arg(QLatin1String(retry));
        };
        QTest::newRow("min above max") << sns(R"("numRetries": 3, "minDelayTarget": 30, "maxDelayTarget": 20)")
                                       << "minDelayTarget" << "healthyRetryPolicy.minDelayTarget";
        QTest::newRow("min zero") << sns(R"("minDelayTarget": 0)") << "minDelayTarget"
                                  << "healthyRetryPolicy.minDelayTarget";
        QTest::newRow("max above 3600") << sns(R"("minDelayTarget": 20, "maxDelayTarget": 4000)") << "maxDelayTarget"
                                        << "healthyRetryPolicy.maxDelayTarget";
        QTest::newRow("too many retries") << sns(R"("numRetries": 101, "minDelayTarget": 1, "maxDelayTarget": 1)")
                                          << "numRetries" << "healthyRetryPolicy.numRetries";
        QTest::newRow("sum rule") << sns(R"("numRetries": 2, "numNoDelayRetries": 3)") << "numRetries"
                                  << "healthyRetryPolicy.numRetries";
        QTest::newRow("negative count") << sns(R"("numRetries": 3, "numMaxDelayRetries": -1)") << "numMaxDelayRetries"
                                        << "healthyRetryPolicy.numMaxDelayRetries";
        QTest::newRow("unknown backoff") << sns(R"("backoffFunction": "quadratic")") << "backoffFunction"
                                         << "healthyRetryPolicy.backoffFunction";
        QTest::newRow("http cap") << sns(R"("numRetries": 100, "numMaxDelayRetries": 100, "minDelayTarget": 60,
                                           "maxDelayTarget": 60)")
                                  << "healthyRetryPolicy" << "healthyRetryPolicy";
        QTest::newRow("unknown key") << sns(R"("minDelayTaget": 5)") << "healthyRetryPolicy"
                                     << "healthyRetryPolicy.minDelayTaget";
        QTest::newRow("throttle zero") << QStringLiteral(R"({"throttlePolicy": {"maxReceivesPerSecond": 0}})")
                                       << "maxReceivesPerSecond" << "throttlePolicy.maxReceivesPerSecond";
        QTest::newRow("content type") << QStringLiteral(R"({"requestPolicy": {"headerContentType": "text/html"}})")
                                      << "headerContentType" << "requestPolicy.headerContentType";
        QTest::newRow("topic form") << QStringLiteral(R"({"http": {"defaultHealthyRetryPolicy": {"minDelayTarget": 0}}})")
                                    << "minDelayTarget" << "http.defaultHealthyRetryPolicy.minDelayTarget";
        QTest::newRow("zaqar form") << QStringLiteral(R"({"_retry_policy": {"minimum_delay": 40}})")
                                    << "minDelayTarget" << "_retry_policy.minimum_delay";
    }

    void invalidValue_showsErrorAtFieldAndKeepsLastValidSchedule()
    {
        QFETCH(QString, document);
        QFETCH(QString, widget);
        QFETCH(QString, field);
        PolicyEditor editor;
        QVERIFY(editor.applyPreset(QStringLiteral("sns-example")));
        const QString validSchedule = scheduleText(*editor.chartForTest()->schedule());
        const QString validTotals = child<QLabel>(editor, "totalsLabel")->text();
        QVERIFY(child<QLabel>(editor, "chartStaleNote")->isHidden());

        editor.setJsonText(document);
        QVERIFY(!editor.evaluation().valid());

        QWidget *marked = child<QWidget>(editor, widget.toLatin1().constData());
        QCOMPARE(marked->property("policyIssue").toString(), QStringLiteral("error"));
        const PolicyIssues &errors = editor.evaluation().explanation->validation.errors;
        const auto issue = std::find_if(errors.begin(), errors.end(),
                                        [&](const PolicyIssue &e) { return e.field == field.toStdString(); });
        QVERIFY2(issue != errors.end(), qPrintable(field));
        QVERIFY(marked->toolTip().contains(QString::fromStdString(issue->message)));
        QVERIFY(issueTexts(child<QListWidget>(editor, "issueList"), QStringLiteral("error"))
                    .contains(field + QStringLiteral(": ") + QString::fromStdString(issue->message)));

        QCOMPARE(scheduleText(*editor.chartForTest()->schedule()), validSchedule);
        QCOMPARE(child<QLabel>(editor, "totalsLabel")->text(), validTotals);
        QVERIFY(!child<QLabel>(editor, "chartStaleNote")->isHidden());
        QVERIFY(child<QLabel>(editor, "chartStaleNote")->text().contains(QStringLiteral("last valid")));

        // Fixing the policy clears the mark and the note.
        editor.applyPreset(QStringLiteral("sns-default"));
        QCOMPARE(marked->property("policyIssue").toString(), QString());
        QVERIFY(child<QLabel>(editor, "chartStaleNote")->isHidden());
    }

    void invalidFormEdit_marksFieldAndKeepsSchedule()
    {
        PolicyEditor editor;
        const QString validSchedule = scheduleText(*editor.chartForTest()->schedule());
        auto *minDelay = child<QSpinBox>(editor, "minDelayTarget");
        minDelay->setValue(45);   // above maxDelayTarget 20
        QCOMPARE(minDelay->property("policyIssue").toString(), QStringLiteral("error"));
        QCOMPARE(parsed(editor.jsonText())["healthyRetryPolicy"]["minDelayTarget"].get<int>(), 45);
        QCOMPARE(scheduleText(*editor.chartForTest()->schedule()), validSchedule);
        QCOMPARE(issueTexts(child<QListWidget>(editor, "issueList"), QStringLiteral("error")).size(), 1);
        child<QSpinBox>(editor, "maxDelayTarget")->setValue(60);
        QCOMPARE(minDelay->property("policyIssue").toString(), QString());
        QVERIFY(editor.evaluation().valid());
        QVERIFY(scheduleText(*editor.chartForTest()->schedule()) != validSchedule);
    }

    void malformedJson_showsSyntaxErrorAndKeepsForm()
    {
        PolicyEditor editor;
        editor.applyPreset(QStringLiteral("sns-example"));
        const QString validSchedule = scheduleText(*editor.chartForTest()->schedule());
        editor.setJsonText(QStringLiteral("{\"healthyRetryPolicy\": {\"numRetries\": }"));
        QVERIFY(editor.evaluation().explanation == std::nullopt);
        const QStringList syntax = issueTexts(child<QListWidget>(editor, "issueList"), QStringLiteral("syntax"));
        QCOMPARE(syntax.size(), 1);
        QVERIFY(syntax.front().contains(QStringLiteral("line 1")));
        QCOMPARE(child<QSpinBox>(editor, "numRetries")->value(), 50);
        QCOMPARE(scheduleText(*editor.chartForTest()->schedule()), validSchedule);
        QVERIFY(!child<QLabel>(editor, "chartStaleNote")->isHidden());
    }

    void deprecatedKeys_showWarningsDistinctFromErrors()
    {
        PolicyEditor editor;
        editor.setJsonText(QStringLiteral(R"({"healthyRetryPolicy": {"numRetries": 3}, "sicklyRetryPolicy": null,
                                              "guaranteed": false})"));
        QVERIFY(editor.evaluation().valid());
        auto *list = child<QListWidget>(editor, "issueList");
        QCOMPARE(issueTexts(list, QStringLiteral("error")).size(), 0);
        QCOMPARE(issueTexts(list, QStringLiteral("warning")).size(), 2);
        QVERIFY(issueTexts(list, QStringLiteral("warning")).front().contains(QStringLiteral("deprecated")));
    }

    void preset_fillsEveryField_data()
    {
        QTest::addColumn<QString>("name");
        for (const PolicyPreset &preset : policyPresets())
            QTest::newRow(preset.name.c_str()) << QString::fromStdString(preset.name);
    }

    void preset_fillsEveryField()
    {
        QFETCH(QString, name);
        const PolicyPreset preset = *findPolicyPreset(name.toStdString());
        PolicyEditor editor;
        if (name == QLatin1String("sns-default"))
            editor.applyPreset(QStringLiteral("sns-example"));
        // Choose it the way a user does: from the presets menu.
        QAction *action = nullptr;
        for (QAction *candidate : editor.presetMenu()->actions()) {
            if (candidate->data().toString() == name)
                action = candidate;
        }
        QVERIFY(action);
        QSignalSpy evaluated(&editor, &PolicyEditor::evaluated);
        action->trigger();
        QCOMPARE(evaluated.count(), 1);

        const RetryPolicy retry = *preset.policy.retry;
        QCOMPARE(child<QSpinBox>(editor, "numRetries")->value(), retry.numRetries);
        QCOMPARE(child<QSpinBox>(editor, "numNoDelayRetries")->value(), retry.numNoDelayRetries);
        QCOMPARE(child<QSpinBox>(editor, "numMinDelayRetries")->value(), retry.numMinDelayRetries);
        QCOMPARE(child<QSpinBox>(editor, "numMaxDelayRetries")->value(), retry.numMaxDelayRetries);
        QCOMPARE(child<QSpinBox>(editor, "minDelayTarget")->value(), retry.minDelayTarget);
        QCOMPARE(child<QSpinBox>(editor, "maxDelayTarget")->value(), retry.maxDelayTarget);
        QCOMPARE(child<QComboBox>(editor, "backoffFunction")->currentText(),
                 QString::fromStdString(std::string(backoffFunctionName(retry.backoffFunction))));
        QCOMPARE(child<QCheckBox>(editor, "noLimit")->isChecked(), !preset.policy.maxReceivesPerSecond.has_value());
        if (preset.policy.maxReceivesPerSecond)
            QCOMPARE(child<QSpinBox>(editor, "maxReceivesPerSecond")->value(), *preset.policy.maxReceivesPerSecond);
        QCOMPARE(child<QComboBox>(editor, "headerContentType")->currentText(),
                 QString::fromStdString(preset.policy.headerContentTypeOrDefault()));
        QCOMPARE(child<QComboBox>(editor, "formSelector")->currentData().toInt(), int(preset.policy.form));
        QCOMPARE(QString::fromStdString(parsed(editor.jsonText()).dump()),
                 QString::fromStdString(writePolicy(preset.policy).dump()));

        // Valid (the managed presets are exempt from the custom limits) and charted.
        QVERIFY(editor.evaluation().valid());
        const PolicyExplanation expected = explainPolicy(preset.policy, preset.name, {});
        QCOMPARE(scheduleText(*editor.chartForTest()->schedule()), scheduleText(*expected.schedule));
        QCOMPARE(child<QLabel>(editor, "totalsLabel")->text(), summaryOf(*expected.schedule));
    }

    void managedPreset_becomesCustomWhenItsRetriesChange()
    {
        PolicyEditor editor;
        editor.applyPreset(QStringLiteral("sns-aws-managed"));
        QVERIFY(editor.evaluation().valid());
        child<QSpinBox>(editor, "numNoDelayRetries")->setValue(4);
        QVERIFY(!editor.evaluation().valid());
        QCOMPARE(child<QSpinBox>(editor, "numRetries")->property("policyIssue").toString(), QStringLiteral("error"));
        child<QSpinBox>(editor, "numNoDelayRetries")->setValue(3);
        QVERIFY(editor.evaluation().valid());
    }

    void switchForm_convertsThePolicy()
    {
        PolicyEditor editor;
        editor.applyPreset(QStringLiteral("sns-example"));
        const QString schedule = scheduleText(*editor.chartForTest()->schedule());
        auto *selector = child<QComboBox>(editor, "formSelector");
        selector->setCurrentIndex(selector->findData(int(PolicyForm::SnsTopic)));

        const json document = parsed(editor.jsonText());
        QVERIFY(document.contains("http"));
        QCOMPARE(document["http"]["defaultHealthyRetryPolicy"]["numRetries"].get<int>(), 50);
        QCOMPARE(document["http"]["defaultThrottlePolicy"]["maxReceivesPerSecond"].get<int>(), 10);
        QVERIFY(editor.evaluation().policy()->form == PolicyForm::SnsTopic);
        QCOMPARE(scheduleText(*editor.chartForTest()->schedule()), schedule);
        QVERIFY(child<QGroupBox>(editor, "overrideSection")->isEnabled());
        QVERIFY(editor.message().contains(QStringLiteral("Converted")));

        // Zaqar -> SNS subscription keeps the schedule and says what still differs.
        editor.applyPreset(QStringLiteral("zaqar-default"));
        const QString zaqarSchedule = scheduleText(*editor.chartForTest()->schedule());
        QVERIFY(editor.setPolicyForm(PolicyForm::SnsSubscription));
        QVERIFY(editor.evaluation().policy()->form == PolicyForm::SnsSubscription);
        QCOMPARE(scheduleText(*editor.chartForTest()->schedule()), zaqarSchedule);
        const PolicyConversion expected =
            convertPolicy(findPolicyPreset("zaqar-default")->policy, PolicyForm::SnsSubscription);
        QVERIFY(!expected.note.empty());
        QVERIFY(editor.message().contains(QString::fromStdString(expected.note)));
    }

    void switchForm_refusedConversionLeavesPolicyAndShowsReason()
    {
        PolicyEditor editor;
        editor.applyPreset(QStringLiteral("sns-example"));
        const QString before = editor.jsonText();
        auto *selector = child<QComboBox>(editor, "formSelector");
        QSignalSpy evaluated(&editor, &PolicyEditor::evaluated);
        selector->setCurrentIndex(selector->findData(int(PolicyForm::Zaqar)));

        const PolicyConversion expected = convertPolicy(findPolicyPreset("sns-example")->policy, PolicyForm::Zaqar);
        QVERIFY(!expected.refusal.empty());
        QCOMPARE(editor.jsonText(), before);
        QCOMPARE(evaluated.count(), 0);
        QCOMPARE(selector->currentData().toInt(), int(PolicyForm::SnsSubscription));
        QVERIFY(editor.evaluation().policy()->form == PolicyForm::SnsSubscription);
        QVERIFY(editor.message().contains(QString::fromStdString(expected.refusal)));
        QVERIFY(!child<QLabel>(editor, "editorMessage")->isHidden());

        // The schedule itself would change: sns-default has 3 backoff retries, Zaqar would plan 1.
        editor.applyPreset(QStringLiteral("sns-default"));
        const QString defaults = editor.jsonText();
        QVERIFY(!editor.setPolicyForm(PolicyForm::Zaqar));
        QCOMPARE(editor.jsonText(), defaults);
        QVERIFY(editor.message().contains(QStringLiteral("schedule would change")));
    }

    void roundTrip_reemitsEquivalentDocument_data()
    {
        QTest::addColumn<QString>("document");
        QTest::addColumn<int>("form");
        QTest::addColumn<bool>("complete");   // every key written: the JSON itself comes back
        QTest::addColumn<QString>("nudge");   // the input edited there and back to make the form re-emit
        QTest::newRow("sns subscription")
            << QStringLiteral(R"({"healthyRetryPolicy": {"minDelayTarget": 1, "maxDelayTarget": 60, "numRetries": 50,
                 "numNoDelayRetries": 3, "numMinDelayRetries": 2, "numMaxDelayRetries": 35,
                 "backoffFunction": "exponential"}, "throttlePolicy": {"maxReceivesPerSecond": 10},
                 "requestPolicy": {"headerContentType": "application/json"}, "sicklyRetryPolicy": null,
                 "guaranteed": false})")
            << int(PolicyForm::SnsSubscription) << true << "numMaxDelayRetries";
        QTest::newRow("sns subscription, throttle only")
            << QStringLiteral(R"({"throttlePolicy": {"maxReceivesPerSecond": 2}})")
            << int(PolicyForm::SnsSubscription) << true << "maxReceivesPerSecond";
        QTest::newRow("sns topic")
            << QStringLiteral(R"({"http": {"defaultHealthyRetryPolicy": {"minDelayTarget": 5, "maxDelayTarget": 260,
                 "numRetries": 10, "numNoDelayRetries": 0, "numMinDelayRetries": 0, "numMaxDelayRetries": 0,
                 "backoffFunction": "arithmetic"}, "disableSubscriptionOverrides": true,
                 "defaultThrottlePolicy": {"maxReceivesPerSecond": 3},
                 "defaultRequestPolicy": {"headerContentType": "text/plain; charset=UTF-8"}}})")
            << int(PolicyForm::SnsTopic) << true << "numMaxDelayRetries";
        QTest::newRow("zaqar, complete")
            << QStringLiteral(R"({"_retry_policy": {"retries_with_no_delay": 3, "minimum_delay_retries": 3,
                 "minimum_delay": 5, "maximum_delay": 60, "maximum_delay_retries": 3,
                 "retry_backoff_function": "linear", "ignore_subscription_override": true}})")
            << int(PolicyForm::Zaqar) << true << "numMaxDelayRetries";
        QTest::newRow("zaqar, partial") << QStringLiteral(R"({"_retry_policy": {"minimum_delay": 10}})")
                                        << int(PolicyForm::Zaqar) << false << "numMaxDelayRetries";
    }

    void roundTrip_reemitsEquivalentDocument()
    {
        QFETCH(QString, document);
        QFETCH(int, form);
        QFETCH(bool, complete);
        QFETCH(QString, nudge);
        PolicyEditor editor;
        editor.setJsonText(document);
        QVERIFY(editor.evaluation().valid());
        QCOMPARE(child<QComboBox>(editor, "formSelector")->currentData().toInt(), form);

        // Make the form re-emit the document: one edit there and back.
        auto *spin = child<QSpinBox>(editor, nudge.toLatin1().constData());
        spin->setValue(spin->value() + 1);
        spin->setValue(spin->value() - 1);
        QVERIFY(editor.jsonText() != document);

        const json original = parsed(document);
        const json emitted = parsed(editor.jsonText());
        QVERIFY(readPolicy(emitted).policy == readPolicy(original).policy);
        QVERIFY(readPolicy(emitted).errors.empty());
        if (complete)
            QCOMPARE(QString::fromStdString(emitted.dump()), QString::fromStdString(original.dump()));
    }

    void protocol_decidesTheHttpCap()
    {
        PolicyEditor editor;
        editor.setJsonText(QStringLiteral(R"({"healthyRetryPolicy": {"numRetries": 100, "numMaxDelayRetries": 100,
                                              "minDelayTarget": 60, "maxDelayTarget": 60}})"));
        QVERIFY(!editor.evaluation().valid());
        auto *protocol = child<QComboBox>(editor, "protocolSelector");
        protocol->setCurrentIndex(protocol->findText(QStringLiteral("sqs")));
        QVERIFY(editor.evaluation().valid());
        QCOMPARE(editor.chartForTest()->schedule()->totalDelaySeconds(), int64_t(6000));
        protocol->setCurrentIndex(protocol->findText(QStringLiteral("https")));
        QVERIFY(!editor.evaluation().valid());
    }

    void rawDelivery_widensContentType()
    {
        PolicyEditor editor;
        editor.setJsonText(QStringLiteral(R"({"requestPolicy": {"headerContentType": "application/xml"}})"));
        QVERIFY(!editor.evaluation().valid());
        child<QCheckBox>(editor, "rawDelivery")->setChecked(true);
        QVERIFY(editor.evaluation().valid());
    }

    void zaqarForm_derivesTotalAndDisablesSnsOnlySections()
    {
        PolicyEditor editor;
        editor.applyPreset(QStringLiteral("zaqar-default"));
        QVERIFY(!child<QSpinBox>(editor, "numRetries")->isEnabled());
        QVERIFY(!child<QGroupBox>(editor, "throttlePolicy")->isEnabled());
        QCOMPARE(child<QSpinBox>(editor, "numRetries")->value(), 15);
        child<QSpinBox>(editor, "maxDelayTarget")->setValue(60);   // the blueprint's worked example
        QCOMPARE(parsed(editor.jsonText())["_retry_policy"]["maximum_delay"].get<int>(), 60);
        QCOMPARE(child<QSpinBox>(editor, "numRetries")->value(), 21);
        QCOMPARE(editor.chartForTest()->schedule()->phase(RetryPhase::Backoff).retries, int64_t(12));
    }

    void compare_overlaysPresetOrFileAndClears()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        PolicyEditor editor;
        PolicySchedulePanel *panel = editor.schedulePanel();
        QAction *example = nullptr;
        for (QAction *action : panel->compareMenu()->actions()) {
            if (action->text().startsWith(QStringLiteral("sns-example")))
                example = action;
        }
        QVERIFY(example);
        example->trigger();
        QVERIFY(editor.chartForTest()->comparison());
        QCOMPARE(editor.chartForTest()->comparison()->retries(), int64_t(50));
        QVERIFY(child<QWidget>(editor, "clearComparisonButton")->isEnabled());
        QCOMPARE(panel->comparisonName(), QStringLiteral("sns-example"));
        QVERIFY(child<QWidget>(editor, "clearComparisonButton")->toolTip().contains(QStringLiteral("sns-example")));

        // Editing the policy keeps the comparison.
        child<QSpinBox>(editor, "numRetries")->setValue(4);
        QVERIFY(editor.chartForTest()->comparison());

        panel->clearComparisonAction()->trigger();
        QVERIFY(!editor.chartForTest()->comparison());
        QVERIFY(!child<QWidget>(editor, "clearComparisonButton")->isEnabled());

        const QString path = dir.filePath(QStringLiteral("other.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"healthyRetryPolicy": {"numRetries": 7, "minDelayTarget": 2, "maxDelayTarget": 9}})");
        file.close();
        QString error;
        QVERIFY2(panel->compareWithFile(path, &error), qPrintable(error));
        QCOMPARE(editor.chartForTest()->comparison()->retries(), int64_t(7));

        QFile broken(dir.filePath(QStringLiteral("broken.json")));
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("{\n  \"healthyRetryPolicy\": [\n");
        broken.close();
        QVERIFY(!panel->compareWithFile(broken.fileName(), &error));
        QVERIFY(error.contains(QStringLiteral("broken.json")));
        QCOMPARE(editor.chartForTest()->comparison()->retries(), int64_t(7));
    }

    void export_writesPngAndSvg()
    {
        QTemporaryDir dir;
        PolicyEditor editor;
        editor.applyPreset(QStringLiteral("sns-example"));
        QString error;
        const QString png = dir.filePath(QStringLiteral("chart.png"));
        QVERIFY2(editor.schedulePanel()->exportChart(png, &error), qPrintable(error));
        const QImage image(png);
        QCOMPARE(image.size(), PolicySchedulePanel::kExportSize);
        const QString svg = dir.filePath(QStringLiteral("chart.svg"));
        QVERIFY2(editor.schedulePanel()->exportChart(svg, &error), qPrintable(error));
        QFile svgFile(svg);
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        QVERIFY(svgFile.readAll().contains("<svg"));
    }

    void keyboard_tabFollowsTheLayout()
    {
        PolicyEditor editor;
        editor.resize(1200, 800);
        editor.show();
        QApplication::setActiveWindow(&editor);
        QVERIFY(QTest::qWaitForWindowActive(&editor));
        auto *form = child<QComboBox>(editor, "formSelector");
        form->setFocus();
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget *>(form));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget *>(child<QComboBox>(editor, "protocolSelector")));
        // From the last button of the bar into the form, from the form's end to the problems and the JSON.
        for (int i = 0; i < 4; ++i)
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget *>(child<QSpinBox>(editor, "numRetries")));
        child<QComboBox>(editor, "headerContentType")->setFocus();
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);   // disabled override box is skipped
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget *>(child<QListWidget>(editor, "issueList")));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget *>(child<QPlainTextEdit>(editor, "policyJson")));
    }

    void saveAndOpen_roundTripTheText()
    {
        QTemporaryDir dir;
        PolicyEditor editor;
        editor.applyPreset(QStringLiteral("sns-example"));
        child<QSpinBox>(editor, "numMaxDelayRetries")->setValue(30);
        const QString saved = editor.jsonText();
        const QString path = dir.filePath(QStringLiteral("mine.json"));
        QString error;
        QVERIFY2(editor.savePolicyFile(path, &error), qPrintable(error));

        editor.applyPreset(QStringLiteral("zaqar-default"));
        QVERIFY(editor.openPolicyFile(path, &error));
        QCOMPARE(editor.jsonText().trimmed(), saved.trimmed());
        QCOMPARE(child<QSpinBox>(editor, "numMaxDelayRetries")->value(), 30);
        QCOMPARE(child<QComboBox>(editor, "formSelector")->currentData().toInt(), int(PolicyForm::SnsSubscription));

        QVERIFY(!editor.openPolicyFile(dir.filePath(QStringLiteral("missing.json")), &error));
        QVERIFY(error.contains(QStringLiteral("missing.json")));
    }
};

RELAYDESK_TEST_MAIN(PolicyEditorTest)
#include "policy_editor_test.moc"
