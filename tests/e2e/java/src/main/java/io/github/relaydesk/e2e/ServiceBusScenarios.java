// SPDX-License-Identifier: MIT
package io.github.relaydesk.e2e;

import com.azure.messaging.servicebus.ServiceBusClientBuilder;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Azure Service Bus end to end with the unchanged Java SDK, azure-messaging-servicebus (its own
 * AMQP stack on Proton-J/Reactor), over plain AMQP with the official emulator's connection
 * string (or over AMQPS with RELAYDESK_SB_TRANSPORT=amqps, the local CA in the trust store), against `relaydesk serve --clock virtual`. The scenarios are the shared table
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
        int failed;
        if ("amqps".equals(System.getenv("RELAYDESK_SB_TRANSPORT"))) {
            try (LocalCertificateAuthority ca = new LocalCertificateAuthority(binary)) {
                failed = ScenarioTable.runAll(Path.of(args[0]), scenario -> run(binary, ca, scenario));
            }
        } else {
            failed = ScenarioTable.runAll(Path.of(args[0]), scenario -> run(binary, null, scenario));
        }
        System.exit(failed == 0 ? 0 : 1);
    }

    // Over AMQPS (ca given): the connection string production code has, without UseDevelopmentEmulator,
    // whose port the SDK does not read (5671), so serve's port is the builder's customEndpointAddress.
    private static ServiceBusClientBuilder builder(RelaydeskServer server, LocalCertificateAuthority ca) {
        if (ca == null)
            return new ServiceBusClientBuilder().connectionString(server.connectionString());
        return new ServiceBusClientBuilder()
            .connectionString("Endpoint=sb://localhost;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=SAS_KEY_VALUE")
            .customEndpointAddress("https://localhost:" + server.amqpsPort);
    }

    private static void run(String binary, LocalCertificateAuthority ca, Map<?, ?> scenario) throws Exception {
        try (RelaydeskServer server = ca == null ? new RelaydeskServer(binary)
                                                 : new RelaydeskServer(binary, ca.environment(), List.of("--amqps-port", "0"))) {
            Map<?, ?> entities = (Map<?, ?>) scenario.get("entities");
            for (String kind : List.of("queues", "topics")) {
                Object list = entities == null ? null : entities.get(kind);
                for (Object body : list == null ? List.of() : (List<?>) list) {
                    RelaydeskServer.Reply reply = server.api("POST", "/servicebus/" + kind, body);
                    if (reply.status() != 201)
                        throw new AssertionError("creating " + body + " answered " + reply.status() + ": " + reply.body());
                }
            }
            ServiceBusClientBuilder builder = builder(server, ca);
            try (ScenarioRun run = new ScenarioRun(server, builder, entities)) {
                ScenarioTable.runSteps(scenario, run::step);
            }
        }
    }
}
