// SPDX-License-Identifier: MIT
package dev.relaydesk.testcontainers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/** An example: one RelaydeskContainer with the virtual clock for the class, the AWS SDK v2's SQS client. */
class RelaydeskContainerExampleTest {
    static RelaydeskContainer relaydesk = new RelaydeskContainer().withClock("virtual");
    static SqsClient sqs;

    @BeforeAll
    static void start() {
        relaydesk.start();
        sqs = SqsClient.builder()
            .endpointOverride(relaydesk.sqsEndpoint())
            .region(Region.US_EAST_1)
            .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
            .httpClient(UrlConnectionHttpClient.create())
            .build();
    }

    @AfterAll
    static void stop() {
        sqs.close();
        relaydesk.stop();
    }

    private List<String> receive(String url) {
        return sqs.receiveMessage(b -> b.queueUrl(url).messageSystemAttributeNames(
                MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT))
            .messages().stream()
            .map(m -> m.body() + " #" + m.attributes().get(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT))
            .toList();
    }

    @Test
    void aVisibilityTimeoutPassesWhenTheClockIsAdvanced() throws Exception {
        String url = sqs.createQueue(b -> b.queueName("orders")
            .attributesWithStrings(java.util.Map.of("VisibilityTimeout", "30"))).queueUrl();
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("order 1"));
        assertEquals(List.of("order 1 #1"), receive(url));
        assertEquals(List.of(), receive(url));      // in flight for 30 s
        relaydesk.advance(29);
        assertEquals(List.of(), receive(url));
        relaydesk.advance(1);
        assertEquals(List.of("order 1 #2"), receive(url));
    }

    @Test
    void zaqarListsTheQueuesItMade() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest.Builder zaqar = HttpRequest.newBuilder()
            .header("Client-ID", "3381af92-2b9e-11e3-b191-71861300734c")
            .header("Content-Type", "application/json");
        URI queue = relaydesk.zaqarEndpoint().resolve("/v2/queues/jobs");
        HttpResponse<String> made = http.send(zaqar.copy().uri(queue).PUT(HttpRequest.BodyPublishers.ofString("{}")).build(),
                                              HttpResponse.BodyHandlers.ofString());
        assertEquals(201, made.statusCode(), made.body());
        HttpResponse<String> listed = http.send(zaqar.copy().uri(relaydesk.zaqarEndpoint().resolve("/v2/queues")).GET().build(),
                                                HttpResponse.BodyHandlers.ofString());
        assertTrue(listed.body().contains("\"name\":\"jobs\"") || listed.body().contains("\"name\": \"jobs\""), listed.body());
    }

    @Test
    void theServicebusConnectionStringIsTheEmulators() {
        String connection = relaydesk.servicebusConnectionString();
        assertTrue(connection.startsWith("Endpoint=sb://" + relaydesk.getHost() + ":" + relaydesk.getMappedPort(5672) + ";"),
                   connection);
        assertTrue(connection.endsWith(";UseDevelopmentEmulator=true"), connection);
    }

    @Test
    void advanceNeedsTheVirtualClock() {
        assertThrows(IllegalStateException.class, () -> new RelaydeskContainer().advance(1));
    }
}
