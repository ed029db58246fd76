// SPDX-License-Identifier: MIT
package io.github.relaydesk.e2e;

import com.azure.json.JsonProviders;
import com.azure.json.JsonReader;
import com.azure.json.JsonWriter;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * `relaydesk serve --port 0 --amqp-port 0 --amqps-port off --sb-management-port 0 --db :memory: --clock virtual` for one scenario: the
 * Java twin of ../relaydesk_harness.py. Its ready lines give the HTTP endpoint (the native
 * API, the clock), the AMQP port of the emulator's connection string and the management port. close() stops it with
 * SIGTERM and fails unless it exits with status 0.
 */
final class RelaydeskServer implements AutoCloseable {
    private static final String READY = "relaydesk: listening on ";
    private final Process process;
    private final File errors;
    private final HttpClient http = HttpClient.newHttpClient();
    final String endpoint;
    final int amqpPort;
    final int managementPort;
    final int amqpsPort;   // 0 unless extraArgs turn --amqps-port on

    RelaydeskServer(String binary) throws IOException {
        this(binary, Map.of(), List.of());
    }

    /** With `environment` added to serve's (XDG_DATA_HOME: where its local CA is) and `extraArgs` after the defaults. */
    RelaydeskServer(String binary, Map<String, String> environment, List<String> extraArgs) throws IOException {
        errors = File.createTempFile("relaydesk-serve-", ".log");
        errors.deleteOnExit();
        List<String> command = new ArrayList<>(List.of(binary, "serve", "--port", "0", "--amqp-port", "0", "--amqps-port", "off",
                                                       "--sb-management-port", "0", "--db", ":memory:", "--clock", "virtual"));
        command.addAll(extraArgs);
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(errors);
        builder.environment().putAll(environment);
        process = builder.start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String httpLine = out.readLine();
        String amqpLine = out.readLine();
        String managementLine = out.readLine();
        if (httpLine == null || amqpLine == null || managementLine == null || !httpLine.startsWith(READY)
            || !amqpLine.startsWith(READY + "amqp://") || !managementLine.startsWith(READY + "https://")) {
            process.destroyForcibly();
            throw new IOException("no ready lines, got " + httpLine + " / " + amqpLine + " / " + managementLine + "; stderr: " + errors());
        }
        endpoint = httpLine.substring(READY.length());
        amqpPort = Integer.parseInt(amqpLine.substring(amqpLine.lastIndexOf(':') + 1));
        managementPort = Integer.parseInt(managementLine.substring(managementLine.lastIndexOf(':') + 1));
        String amqpsLine = extraArgs.contains("--amqps-port") ? out.readLine() : null;   // the last ready line
        if (amqpsLine != null && !amqpsLine.startsWith(READY + "amqps://"))
            throw new IOException("no amqps ready line, got " + amqpsLine);
        amqpsPort = amqpsLine == null ? 0 : Integer.parseInt(amqpsLine.substring(amqpsLine.lastIndexOf(':') + 1));
    }

    /** The connection string the official Service Bus emulator documents, with this server's AMQP port. */
    String connectionString() {
        return connectionString(amqpPort, "SAS_KEY_VALUE");
    }

    static String connectionString(int port, String key) {
        return "Endpoint=sb://localhost:" + port + ";SharedAccessKeyName=RootManageSharedAccessKey;"
            + "SharedAccessKey=" + key + ";UseDevelopmentEmulator=true";
    }

    /** Calls the native API (/api/v1 + path); returns the status and the parsed JSON body. */
    Reply api(String method, String path, Object body) throws IOException, InterruptedException {
        HttpRequest.BodyPublisher publish = body == null ? HttpRequest.BodyPublishers.noBody()
                                                         : HttpRequest.BodyPublishers.ofByteArray(json(body));
        HttpRequest request = HttpRequest.newBuilder(URI.create(endpoint + "/api/v1" + path))
                                  .header("Content-Type", "application/json").method(method, publish).build();
        HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        return new Reply(response.statusCode(), parse(response.body()));
    }

    void advance(long seconds) throws IOException, InterruptedException {
        Reply reply = api("POST", "/clock/advance", Map.of("seconds", seconds));
        if (reply.status != 200)
            throw new AssertionError("clock advance answered " + reply.status + ": " + reply.body);
    }

    long nowMs() throws IOException, InterruptedException {
        return ((Number) ((Map<?, ?>) api("GET", "/clock", null).body).get("nowMs")).longValue();
    }

    String errors() throws IOException {
        return Files.readString(errors.toPath());
    }

    @Override
    public void close() throws IOException, InterruptedException {
        process.destroy();   // SIGTERM
        if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0)
            throw new AssertionError("relaydesk serve did not exit with 0: " + errors());
    }

    static Object parse(byte[] json) throws IOException {
        if (json.length == 0)
            return null;
        try (JsonReader reader = JsonProviders.createReader(json)) {
            reader.nextToken();
            return reader.readUntyped();
        }
    }

    static byte[] json(Object value) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JsonWriter writer = JsonProviders.createWriter(bytes)) {
            writer.writeUntyped(value).flush();
        }
        return bytes.toByteArray();
    }

    record Reply(int status, Object body) {}
}
