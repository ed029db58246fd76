// SPDX-License-Identifier: MIT
// parseMockScript (docs/behaviour.md §4.7): the step grammar, repeat counts, "then" and
// "always", durations, and errors that name their position.
#include "broker/deliveries/mock_script.h"
#include "support/test_main.h"

#include <QtTest>

using namespace relaydesk;
using namespace std::chrono_literals;

Q_DECLARE_METATYPE(MockStep)

namespace {

MockStep respond(int status, std::uint64_t count = 1, std::chrono::milliseconds delay = 0ms)
{
    return {MockAction::Respond, status, delay, count};
}
MockStep hang(std::chrono::milliseconds duration, std::uint64_t count = 1)
{
    return {MockAction::Hang, 200, duration, count};
}
MockStep closeConnection(std::uint64_t count = 1)
{
    return {MockAction::Close, 200, 0ms, count};
}

using Steps = std::vector<MockStep>;

} // namespace

Q_DECLARE_METATYPE(Steps)

class MockScriptTest final : public QObject {
    Q_OBJECT

private slots:
    void parse_validScript_givesSteps_data()
    {
        QTest::addColumn<QString>("script");
        QTest::addColumn<Steps>("steps");
        QTest::newRow("one status") << "200" << Steps{respond(200)};
        QTest::newRow("spec: 503 × 5, then 200") << "503 × 5, then 200" << Steps{respond(503, 5), respond(200)};
        QTest::newRow("ascii x") << "503 x 5, then 200" << Steps{respond(503, 5), respond(200)};
        QTest::newRow("no blanks") << "503x5,200" << Steps{respond(503, 5), respond(200)};
        QTest::newRow("upper case X") << "503 X 5 THEN 200" << Steps{respond(503, 5), respond(200)};
        QTest::newRow("× without blanks") << "503×5" << Steps{respond(503, 5)};
        QTest::newRow("then alone") << "500 then 404 then 200" << Steps{respond(500), respond(404), respond(200)};
        QTest::newRow("spec: 429 always") << "429 always" << Steps{respond(429)};
        QTest::newRow("always after several") << "500 x 2, 200 always" << Steps{respond(500, 2), respond(200)};
        QTest::newRow("spec: hang 20 s") << "hang 20 s" << Steps{hang(20s)};
        QTest::newRow("hang ms") << "hang 300ms" << Steps{hang(300ms)};
        QTest::newRow("hang fraction") << "hang 1.5s" << Steps{hang(1500ms)};
        QTest::newRow("hang minutes") << "hang 2 min" << Steps{hang(2min)};
        QTest::newRow("hang m") << "hang 1m, 200" << Steps{hang(1min), respond(200)};
        QTest::newRow("spec: close the connection") << "close" << Steps{closeConnection()};
        QTest::newRow("close repeated") << "close x 2, then 200" << Steps{closeConnection(2), respond(200)};
        QTest::newRow("delay then status") << "delay 2 s then 201" << Steps{respond(201, 1, 2s)};
        QTest::newRow("delay status") << "delay 250ms 503 x 3, 200" << Steps{respond(503, 3, 250ms), respond(200)};
        QTest::newRow("delay then connector")
            << "delay 1 s then 500, then 200" << Steps{respond(500, 1, 1s), respond(200)};
        QTest::newRow("mixed") << "500 x 3 then hang 10 s x 2 then close, 204"
                               << Steps{respond(500, 3), hang(10s, 2), closeConnection(), respond(204)};
        QTest::newRow("blanks around") << "  \t200 ,\n 404  " << Steps{respond(200), respond(404)};
        QTest::newRow("status bounds") << "100, 999" << Steps{respond(100), respond(999)};
        // Statuses outside 200–599 are how a Zaqar-dialect policy's "retryable" rule is tried (docs/behaviour.md §4.2).
        QTest::newRow("status beyond 599") << "600 x 2, then 200" << Steps{respond(600, 2), respond(200)};
        QTest::newRow("max duration") << "hang 60 min" << Steps{hang(1h)};
    }
    void parse_validScript_givesSteps()
    {
        QFETCH(QString, script);
        QFETCH(Steps, steps);
        Result<MockScript> parsed = parseMockScript(script.toStdString());
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message.c_str());
        QCOMPARE(parsed->steps.size(), steps.size());
        for (std::size_t i = 0; i < steps.size(); ++i)
            QVERIFY2(parsed->steps[i] == steps[i], qPrintable(QStringLiteral("step %1").arg(i)));
        QCOMPARE(parsed->text, script.toStdString());
    }

    void parse_invalidScript_namesPosition_data()
    {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << "" << "the script is empty: expected a status code, \"hang\", \"delay\" or \"close\" at character 1";
        QTest::newRow("blank") << "   " << "the script is empty: expected a status code, \"hang\", \"delay\" or \"close\" at character 4";
        QTest::newRow("unknown word") << "503, retry" << "expected a status code, \"hang\", \"delay\" or \"close\" at character 6";
        QTest::newRow("status too low") << "99" << "expected a status code from 100 to 999 at character 1";
        QTest::newRow("status too high") << "200, 1000" << "expected a status code from 100 to 999 at character 6";
        QTest::newRow("fractional status") << "200.5" << "expected a status code from 100 to 999 at character 1";
        QTest::newRow("missing count") << "503 x, 200" << "expected a repeat count (a whole number from 1 to 1000000) after \"x\" at character 6";
        QTest::newRow("zero count") << "503 × 0" << "expected a repeat count (a whole number from 1 to 1000000) after \"x\" at character 7";
        QTest::newRow("count past 10^6") << "503 x 1000001" << "expected a repeat count (a whole number from 1 to 1000000) after \"x\" at character 7";
        QTest::newRow("count 2^63") << "503 x 9223372036854775808" << "expected a repeat count (a whole number from 1 to 1000000) after \"x\" at character 7";
        QTest::newRow("huge delay") << "delay 99999999999999999999 s then 200" << "expected a duration above 0 and at most 1 hour at character 7";
        QTest::newRow("huge count") << "503 x 99999999999999999999999" << "expected a repeat count (a whole number from 1 to 1000000) after \"x\" at character 7";
        QTest::newRow("hang without duration") << "hang" << "expected a duration such as \"20 s\" or \"300 ms\" at character 5";
        QTest::newRow("hang without unit") << "hang 20" << "expected a unit: ms, s or min at character 8";
        QTest::newRow("hang bad unit") << "hang 20 h" << "expected a unit: ms, s or min at character 9";
        QTest::newRow("hang too long") << "hang 61 min" << "expected a duration above 0 and at most 1 hour at character 6";
        QTest::newRow("hang zero") << "hang 0 s" << "expected a duration above 0 and at most 1 hour at character 6";
        QTest::newRow("delay without status") << "delay 1 s then close" << "expected the status code to answer after the delay at character 16";
        QTest::newRow("missing separator") << "503 200" << "expected \",\", \"then\", \"always\" or the end of the script at character 5";
        QTest::newRow("trailing comma") << "503," << "expected a status code, \"hang\", \"delay\" or \"close\" at character 5";
        QTest::newRow("after always") << "429 always, 200" << "nothing may follow \"always\" at character 11";
        QTest::newRow("always alone") << "always" << "expected a status code, \"hang\", \"delay\" or \"close\" at character 1";
        QTest::newRow("bad character") << "503 × 2; 200" << "unexpected character at character 8";
        QTest::newRow("position counts characters") << "503 × 2 × 3" << "expected \",\", \"then\", \"always\" or the end of the script at character 9";
    }
    void parse_invalidScript_namesPosition()
    {
        QFETCH(QString, script);
        QFETCH(QString, message);
        Result<MockScript> parsed = parseMockScript(script.toStdString());
        QVERIFY(!parsed.ok());
        QCOMPARE(parsed.error().code, BrokerErrorCode::InvalidParameterValue);
        QCOMPARE(QString::fromStdString(parsed.error().message), "mock script: " + message);
    }

    void stepFor_followsCountsThenRepeatsLast()
    {
        Result<MockScript> parsed = parseMockScript("503 x 2, close, 200");
        QVERIFY(parsed.ok());
        const std::vector<MockStep> expected{respond(503, 2), respond(503, 2), closeConnection(),
                                             respond(200), respond(200), respond(200)};
        for (std::uint64_t i = 0; i < expected.size(); ++i)
            QVERIFY2(parsed->stepFor(i) == expected[i], qPrintable(QStringLiteral("request %1").arg(i)));
        QVERIFY(parsed->stepFor(1'000'000'000ULL) == respond(200));
    }

    void stepFor_lastStepCountDoesNotEndIt()
    {
        Result<MockScript> parsed = parseMockScript("429 x 2");
        QVERIFY(parsed.ok());
        QCOMPARE(parsed->stepFor(5).status, 429);
    }
};

RELAYDESK_TEST_MAIN(MockScriptTest)
#include "mock_script_test.moc"
