// SPDX-License-Identifier: MIT
package io.github.relaydesk.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A shared scenario table run by one of this SDK's runners: each scenario not skipped for
 * "java" is run, one line printed for it; failures are counted and printed with their cause.
 */
final class ScenarioTable {
    private ScenarioTable() {}

    interface Scenario {
        void run(Map<?, ?> scenario) throws Exception;
    }

    interface Step {
        void run(Map<?, ?> step) throws Exception;
    }

    /** Runs every scenario of the table at `path`; returns how many failed. */
    static int runAll(Path path, Scenario runner) throws Exception {
        Map<?, ?> table = (Map<?, ?>) RelaydeskServer.parse(Files.readAllBytes(path));
        int failed = 0;
        for (Object each : (List<?>) table.get("scenarios")) {
            Map<?, ?> scenario = (Map<?, ?>) each;
            Map<?, ?> skip = (Map<?, ?>) scenario.get("skip");
            if (skip != null && skip.containsKey("java")) {
                System.out.println("skip " + scenario.get("name") + ": " + skip.get("java"));
                continue;
            }
            try {
                runner.run(scenario);
                System.out.println("ok   " + scenario.get("name"));
            } catch (Throwable error) {
                ++failed;
                System.out.println("FAIL " + scenario.get("name"));
                error.printStackTrace(System.out);
            }
        }
        System.out.println(failed == 0 ? "all passed" : failed + " failed");
        return failed;
    }

    /** The scenario's steps in order; a failure names its step. */
    static void runSteps(Map<?, ?> scenario, Step runner) {
        int number = 0;
        for (Object step : (List<?>) scenario.get("steps")) {
            try {
                runner.run((Map<?, ?>) step);
            } catch (Throwable error) {
                throw new AssertionError("step " + number + ": " + step, error);
            }
            ++number;
        }
    }
}
