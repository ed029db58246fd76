// SPDX-License-Identifier: MIT
package dev.relaydesk.testcontainers;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;

import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * The relaydesk image (installer/dev.sh image) as a Testcontainers container
 * (docs/harness.md "In CI and containers").
 *
 * <pre>
 * try (RelaydeskContainer relaydesk = new RelaydeskContainer().withClock("virtual")) {
 *     relaydesk.start();
 *     SqsClient sqs = SqsClient.builder().endpointOverride(relaydesk.sqsEndpoint())...;
 *     relaydesk.advance(30);   // a 30 s visibility timeout passes, now
 * }
 * </pre>
 *
 * {@code start()} returns once {@code GET /health} answers 200. SQS and SNS are the mapped
 * HTTP port's root, Zaqar v2 is under {@code /v2} of it, Service Bus is AMQP 1.0 on the
 * mapped 5672 with the official emulator's connection string. The database is in the
 * container: each container starts empty. The image: the constructor's argument, else
 * {@code $RELAYDESK_IMAGE}, else {@link #IMAGE}.
 */
public class RelaydeskContainer extends GenericContainer<RelaydeskContainer> {
    /** What installer/image/build_image.sh tags: relaydesk:&lt;the .deb's version&gt; (CMakeLists.txt's VERSION). */
    public static final String IMAGE = "relaydesk:0.1.0";
    public static final int HTTP_PORT = 9911;
    public static final int AMQP_PORT = 5672;
    private static final String SERVICEBUS_KEY =
        "SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=SAS_KEY_VALUE;UseDevelopmentEmulator=true";

    private String clock = "real";

    public RelaydeskContainer() {
        this(System.getenv().getOrDefault("RELAYDESK_IMAGE", IMAGE));
    }

    public RelaydeskContainer(String image) {
        super(DockerImageName.parse(image));
        withExposedPorts(HTTP_PORT, AMQP_PORT);
        waitingFor(Wait.forHttp("/health").forPort(HTTP_PORT).forStatusCode(200)
            .withStartupTimeout(Duration.ofSeconds(60)));
    }

    /** "real" (the image's default), "scaled" or "virtual" (docs/harness.md, The clock). */
    public RelaydeskContainer withClock(String clock) {
        this.clock = clock;
        return withOption("clock", clock);
    }

    /** A {@code serve} option by its long name without "--": RELAYDESK_&lt;NAME&gt; in the container. */
    public RelaydeskContainer withOption(String name, String value) {
        return withEnv("RELAYDESK_" + name.toUpperCase(Locale.ROOT).replace('-', '_'), value);
    }

    public URI httpEndpoint() {
        return URI.create("http://" + getHost() + ":" + getMappedPort(HTTP_PORT));
    }

    /** The SQS endpoint (JSON and query protocols), an AWS SDK's endpointOverride. */
    public URI sqsEndpoint() {
        return httpEndpoint();
    }

    /** The SNS endpoint (query protocol), an AWS SDK's endpointOverride. */
    public URI snsEndpoint() {
        return httpEndpoint();
    }

    /** The Zaqar service root (the v2 API is under /v2). */
    public URI zaqarEndpoint() {
        return httpEndpoint();
    }

    /** The official emulator's connection string, which the Azure Service Bus SDKs take. */
    public String servicebusConnectionString() {
        return "Endpoint=sb://" + getHost() + ":" + getMappedPort(AMQP_PORT) + ";" + SERVICEBUS_KEY;
    }

    /**
     * Moves the virtual clock on by seconds and returns once everything due has happened
     * (docs/api.md, Clock). Only with withClock("virtual"): otherwise IllegalStateException,
     * and nothing changes.
     */
    public void advance(double seconds) throws IOException, InterruptedException {
        if (!"virtual".equals(clock)) {
            throw new IllegalStateException("advance needs withClock(\"virtual\"); this container's clock is " + clock);
        }
        HttpRequest request = HttpRequest.newBuilder(httpEndpoint().resolve("/api/v1/clock/advance"))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{\"seconds\": " + seconds + "}"))
            .build();
        HttpResponse<String> reply = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        if (reply.statusCode() != 200) {
            throw new IOException("clock/advance answered " + reply.statusCode() + ": " + reply.body());
        }
    }
}
