// SPDX-License-Identifier: MIT
package io.github.relaydesk.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;

/**
 * Relaydesk's local CA trusted as a Java user trusts it (docs/harness.md "Trusting the local CA"):
 *
 *   keytool -importcert -noprompt -alias relaydesk -file "$(relaydesk tls ca)" -keystore relaydesk.p12 -storepass changeit
 *   java -Djavax.net.ssl.trustStore=relaydesk.p12 -Djavax.net.ssl.trustStorePassword=changeit ...
 *
 * Here the CA is made in a scratch XDG_DATA_HOME (environment(): the servers are started with it,
 * so they issue their certificates from it), and the two properties are set in this JVM before its
 * first TLS connection. close() removes the scratch folder.
 */
final class LocalCertificateAuthority implements AutoCloseable {
    final Path scratch;

    LocalCertificateAuthority(String binary) throws Exception {
        scratch = Files.createTempDirectory("relaydesk-java-ca-");
        ProcessBuilder ca = new ProcessBuilder(binary, "tls", "ca");
        ca.environment().putAll(environment());
        Process caProcess = ca.start();
        String certificate = new String(caProcess.getInputStream().readAllBytes()).trim();
        if (caProcess.waitFor() != 0)
            throw new IOException("relaydesk tls ca failed");
        Path store = scratch.resolve("relaydesk.p12");
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        Process imported = new ProcessBuilder(keytool, "-importcert", "-noprompt", "-alias", "relaydesk", "-file", certificate,
                                              "-keystore", store.toString(), "-storepass", "changeit")
                               .redirectErrorStream(true).start();
        String said = new String(imported.getInputStream().readAllBytes());
        if (imported.waitFor() != 0)
            throw new IOException("keytool: " + said);
        System.setProperty("javax.net.ssl.trustStore", store.toString());
        System.setProperty("javax.net.ssl.trustStorePassword", "changeit");
    }

    Map<String, String> environment() {
        return Map.of("XDG_DATA_HOME", scratch.toString());
    }

    @Override
    public void close() throws IOException {
        try (var files = Files.walk(scratch)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }
}
