// SPDX-License-Identifier: MIT
package io.github.relaydesk.e2e;

import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import com.azure.messaging.servicebus.ServiceBusException;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.administration.models.CorrelationRuleFilter;
import com.azure.messaging.servicebus.administration.models.CreateRuleOptions;
import com.azure.messaging.servicebus.administration.models.RuleProperties;
import com.azure.messaging.servicebus.administration.models.SqlRuleFilter;
import com.azure.messaging.servicebus.models.DeadLetterOptions;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/** One scenario of the shared table against one server: its clients by source, the messages kept by name. */
final class ScenarioRun implements AutoCloseable {
    private static final Duration WAIT = Duration.ofSeconds(2);       // a receive that expects messages
    private static final Duration NO_WAIT = Duration.ofMillis(300);   // a receive that expects none

    private final RelaydeskServer server;
    private final ScenarioClients clients;
    private final Map<String, List<Kept>> kept = new HashMap<>();

    // What a step kept for later ones: a received message and its receiver, or a scheduled sequence number.
    private record Kept(ServiceBusReceiverClient receiver, ServiceBusReceivedMessage message, long sequence) {}

    ScenarioRun(RelaydeskServer server, ServiceBusClientBuilder builder, Map<?, ?> entities) {
        this.server = server;
        this.clients = new ScenarioClients(builder, entities);
    }

    /** Runs a step; one with "error" must fail with that Service Bus error, as this SDK's failure reason. */
    void step(Map<?, ?> step) throws Exception {
        String error = (String) step.get("error");
        if (error == null) {
            perform(step);
            return;
        }
        String reason = error.replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT);
        try {
            perform(step);
        } catch (RuntimeException thrown) {
            for (Throwable cause = thrown; cause != null; cause = cause.getCause()) {
                if (cause instanceof ServiceBusException serviceBus) {
                    check(reason, serviceBus.getReason().toString(), "failure reason");
                    return;
                }
            }
            throw new AssertionError("expected " + reason + ", got " + thrown, thrown);
        }
        throw new AssertionError("expected " + reason + "; the step succeeded");
    }

    private void perform(Map<?, ?> step) throws Exception {
        String op = (String) step.get("op");
        switch (op) {
            case "send" -> clients.sender(text(step, "entity")).sendMessages(messagesOf(step));
            case "schedule" -> {
                OffsetDateTime at = Instant.ofEpochMilli(server.nowMs() + number(step, "inSeconds") * 1000).atOffset(ZoneOffset.UTC);
                List<Kept> sequences = new ArrayList<>();
                for (ServiceBusMessage message : messagesOf(step))
                    sequences.add(new Kept(null, null, clients.sender(text(step, "entity")).scheduleMessage(message, at)));
                if (step.containsKey("as"))
                    kept.put(text(step, "as"), sequences);
            }
            case "cancelScheduled" -> {
                for (Kept each : messages(text(step, "sequences")))
                    clients.sender(text(step, "entity")).cancelScheduledMessage(each.sequence);
            }
            case "renewLock" -> {
                for (Kept each : messages(text(step, "messages"))) {
                    OffsetDateTime before = each.message.getLockedUntil();
                    OffsetDateTime after = each.receiver.renewMessageLock(each.message);
                    check(number(step, "extendsBySeconds") * 1000, Duration.between(before, after).toMillis(), "lock extended by (ms)");
                }
            }
            case "receive" -> receive(step);
            case "peek" -> {
                ServiceBusReceiverClient receiver = clients.receiver(step);
                int max = (int) number(step, "max");
                List<ServiceBusReceivedMessage> got = new ArrayList<>();
                (step.containsKey("fromSequenceOf") ? receiver.peekMessages(max, messages(text(step, "fromSequenceOf")).get(0).message.getSequenceNumber())
                                                    : receiver.peekMessages(max)).forEach(got::add);
                keep(step, receiver, got);
            }
            case "receiveDeferred" -> {
                ServiceBusReceiverClient receiver = clients.receiver(step);
                List<ServiceBusReceivedMessage> got = new ArrayList<>();
                for (Kept each : messages(text(step, "sequenceOf")))
                    got.add(receiver.receiveDeferredMessage(each.message.getSequenceNumber()));
                keep(step, receiver, got);
            }
            case "complete", "abandon", "defer", "deadLetter" -> {
                for (Kept each : messages(text(step, "messages")))
                    settle(op, step, each);
            }
            case "sessionState" -> {
                byte[] state = clients.receiver(step).getSessionState();
                check(step.get("expect"), state == null ? null : new String(state, StandardCharsets.UTF_8), "session state");
            }
            case "setSessionState" -> clients.receiver(step).setSessionState(text(step, "state").getBytes(StandardCharsets.UTF_8));
            case "createRule" -> {
                Map<?, ?> correlation = (Map<?, ?>) step.get("correlation");
                CreateRuleOptions options;
                if (correlation != null) {
                    CorrelationRuleFilter filter = new CorrelationRuleFilter();
                    filter.setLabel((String) correlation.get("subject"));
                    options = new CreateRuleOptions(filter);
                } else {
                    options = new CreateRuleOptions(new SqlRuleFilter(text(step, "sql")));
                }
                clients.rules(step).createRule(text(step, "name"), options);
            }
            case "deleteRule" -> clients.rules(step).deleteRule(text(step, "name"));
            case "rules" -> {
                List<String> names = new ArrayList<>();
                for (RuleProperties rule : clients.rules(step).listRules())
                    names.add(rule.getName());
                check(step.get("expect"), names, "rules");
            }
            case "advance" -> server.advance(number(step, "seconds"));
            case "depth" -> depth(step);
            default -> throw new IllegalArgumentException("unknown step " + op);
        }
    }

    private void receive(Map<?, ?> step) {
        ServiceBusReceiverClient receiver = clients.receiver(step);
        int max = (int) number(step, "max");
        int wanted = ((List<?>) step.get("expect")).size();
        List<ServiceBusReceivedMessage> got = new ArrayList<>();
        while (true) {   // the SDK may hand over fewer than are there in one call
            int before = got.size();
            receiver.receiveMessages(max - got.size(), wanted == 0 ? NO_WAIT : WAIT).forEach(got::add);
            if (got.size() == before || got.size() >= wanted)
                break;
        }
        keep(step, receiver, got);
    }

    private void settle(String op, Map<?, ?> step, Kept each) {
        switch (op) {
            case "complete" -> each.receiver.complete(each.message);
            case "abandon" -> each.receiver.abandon(each.message);
            case "defer" -> each.receiver.defer(each.message);
            default -> each.receiver.deadLetter(each.message, new DeadLetterOptions()
                .setDeadLetterReason(text(step, "reason")).setDeadLetterErrorDescription(text(step, "description")));
        }
    }

    private void depth(Map<?, ?> step) throws Exception {
        RelaydeskServer.Reply reply = server.api("GET", "/queues/" + URLEncoder.encode(text(step, "entity"), StandardCharsets.UTF_8), null);
        if (reply.status() != 200)
            throw new AssertionError("GET queue answered " + reply.status() + ": " + reply.body());
        Map<?, ?> attributes = (Map<?, ?>) ((Map<?, ?>) reply.body()).get("attributes");
        Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("available", Long.parseLong((String) attributes.get("ApproximateNumberOfMessages")));
        counts.put("locked", Long.parseLong((String) attributes.get("ApproximateNumberOfMessagesNotVisible")));
        check(step.get("expect"), counts, "depth of " + step.get("entity"));
    }

    private void keep(Map<?, ?> step, ServiceBusReceiverClient receiver, List<ServiceBusReceivedMessage> got) {
        List<?> expected = (List<?>) step.get("expect");
        List<Object> facts = new ArrayList<>();
        for (int i = 0; i < got.size(); ++i)
            facts.add(MessageFacts.of(got.get(i), i < expected.size() ? (Map<?, ?>) expected.get(i) : Map.of("body", "")));
        check(expected, facts, "messages");
        if (step.containsKey("as")) {
            List<Kept> list = new ArrayList<>();
            for (ServiceBusReceivedMessage message : got)
                list.add(new Kept(receiver, message, message.getSequenceNumber()));
            kept.put(text(step, "as"), list);
        }
    }

    private List<Kept> messages(String reference) {
        int bracket = reference.indexOf('[');
        if (bracket < 0)
            return kept.get(reference);
        int index = Integer.parseInt(reference.substring(bracket + 1, reference.length() - 1));
        return List.of(kept.get(reference.substring(0, bracket)).get(index));
    }

    private static List<ServiceBusMessage> messagesOf(Map<?, ?> step) {
        List<ServiceBusMessage> messages = new ArrayList<>();
        for (Object each : (List<?>) step.get("messages"))
            messages.add(MessageFacts.message((Map<?, ?>) each));
        return messages;
    }

    private static void check(Object expected, Object actual, String what) {
        if (!Objects.equals(MessageFacts.normal(expected), MessageFacts.normal(actual)))
            throw new AssertionError(what + ": expected " + expected + ", got " + actual);
    }

    private static String text(Map<?, ?> step, String key) {
        return (String) step.get(key);
    }

    private static long number(Map<?, ?> step, String key) {
        return ((Number) step.get(key)).longValue();
    }

    @Override
    public void close() throws Exception {
        clients.close();
    }
}
