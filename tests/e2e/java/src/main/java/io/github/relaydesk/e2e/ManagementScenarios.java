// SPDX-License-Identifier: MIT
package io.github.relaydesk.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The Service Bus management API with the unchanged ServiceBusAdministrationClient of
 * azure-messaging-servicebus, over HTTPS with the local CA in the JVM's trust store
 * (LocalCertificateAuthority). The scenarios are tests/e2e/servicebus_management_scenarios.json
 * (the Python and JavaScript administration clients run the same one); ManagementRun says how
 * each step is done with this SDK. Arguments: the table; RELAYDESK_BINARY names the program.
 */
public final class ManagementScenarios {
    private ManagementScenarios() {}

    public static void main(String[] args) throws Exception {
        String binary = System.getenv("RELAYDESK_BINARY");
        if (binary == null || args.length != 1)
            throw new IllegalArgumentException("usage: RELAYDESK_BINARY=PATH ManagementScenarios TABLE.json");
        int failed;
        try (LocalCertificateAuthority ca = new LocalCertificateAuthority(binary)) {
            failed = ScenarioTable.runAll(Path.of(args[0]), scenario -> run(binary, ca, scenario));
        }
        System.exit(failed == 0 ? 0 : 1);
    }

    private static void run(String binary, LocalCertificateAuthority ca, Map<?, ?> scenario) throws Exception {
        Map<?, ?> keys = (Map<?, ?>) scenario.get("sharedAccessKeys");
        List<String> extra = List.of();
        if (keys != null) {
            Path credentials = ca.scratch.resolve("credentials.json");
            Files.write(credentials, RelaydeskServer.json(Map.of("sharedAccessKeys", keys)));
            extra = List.of("--credentials", credentials.toString());
        }
        try (RelaydeskServer server = new RelaydeskServer(binary, ca.environment(), extra)) {
            ManagementRun run = new ManagementRun(server, keys == null ? "SAS_KEY_VALUE" : (String) keys.values().iterator().next());
            ScenarioTable.runSteps(scenario, run::step);
        }
    }
}
