// SPDX-License-Identifier: MIT
package io.github.relaydesk.e2e;

import com.azure.messaging.servicebus.ServiceBusClientBuilder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Azure Service Bus end to end with the unchanged Java SDK, azure-messaging-servicebus (its own
 * AMQP stack on Proton-J/Reactor), over plain AMQP with the official emulator's connection
 * string, against `relaydesk serve --clock virtual`. The scenarios are the shared table
 * tests/e2e/servicebus_sdk_scenarios.json (the Python and JavaScript SDKs run the same one);
 * ScenarioRun says how each step is done with this SDK. Arguments: the table; RELAYDESK_BINARY
 * names the program. Prints one line a scenario and exits 1 when one failed.
 */
public final class ServiceBusScenarios {
    private ServiceBusScenarios() {}

    public static void main(String[] args) throws Exception {
        String binary = System.getenv("RELAYDESK_BINARY");
        if (binary == null || args.length != 1)
            throw new IllegalArgumentException("usage: RELAYDESK_BINARY=PATH ServiceBusScenarios TABLE.json");
        Map<?, ?> table = (Map<?, ?>) RelaydeskServer.parse(Files.readAllBytes(Path.of(args[0])));
        int failed = 0;
        for (Object each : (List<?>) table.get("scenarios")) {
            Map<?, ?> scenario = (Map<?, ?>) each;
            Map<?, ?> skip = (Map<?, ?>) scenario.get("skip");
            if (skip != null && skip.containsKey("java")) {
                System.out.println("skip " + scenario.get("name") + ": " + skip.get("java"));
                continue;
            }
            try {
                run(binary, scenario);
                System.out.println("ok   " + scenario.get("name"));
            } catch (Throwable error) {
                ++failed;
                System.out.println("FAIL " + scenario.get("name"));
                error.printStackTrace(System.out);
            }
        }
        System.out.println(failed == 0 ? "all passed" : failed + " failed");
        System.exit(failed == 0 ? 0 : 1);
    }

    private static void run(String binary, Map<?, ?> scenario) throws Exception {
        try (RelaydeskServer server = new RelaydeskServer(binary)) {
            Map<?, ?> entities = (Map<?, ?>) scenario.get("entities");
            for (String kind : List.of("queues", "topics")) {
                Object list = entities == null ? null : entities.get(kind);
                for (Object body : list == null ? List.of() : (List<?>) list) {
                    RelaydeskServer.Reply reply = server.api("POST", "/servicebus/" + kind, body);
                    if (reply.status() != 201)
                        throw new AssertionError("creating " + body + " answered " + reply.status() + ": " + reply.body());
                }
            }
            ServiceBusClientBuilder builder = new ServiceBusClientBuilder().connectionString(server.connectionString());
            try (ScenarioRun run = new ScenarioRun(server, builder, entities)) {
                int number = 0;
                for (Object step : (List<?>) scenario.get("steps")) {
                    try {
                        run.step((Map<?, ?>) step);
                    } catch (Throwable error) {
                        throw new AssertionError("step " + number + ": " + step, error);
                    }
                    ++number;
                }
            }
        }
    }
}
