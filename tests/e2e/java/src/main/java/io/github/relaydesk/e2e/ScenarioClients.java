// SPDX-License-Identifier: MIT
package io.github.relaydesk.e2e;

import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusRuleManagerClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.ServiceBusSessionReceiverClient;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import com.azure.messaging.servicebus.models.SubQueue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The SDK clients of one scenario, on the builder's one connection: a receiver for each source a
 * step names (entity, subscription, sub-queue, session, receive mode), a sender for each entity,
 * rule managers; all closed with the scenario. Automatic lock renewal is off: locks end on the
 * broker's virtual clock.
 */
final class ScenarioClients implements AutoCloseable {
    private final ServiceBusClientBuilder builder;
    private final List<String> topics = new ArrayList<>();
    private final Map<String, ServiceBusReceiverClient> receivers = new HashMap<>();
    private final Map<String, ServiceBusSenderClient> senders = new HashMap<>();
    private final List<AutoCloseable> closing = new ArrayList<>();

    ScenarioClients(ServiceBusClientBuilder builder, Map<?, ?> entities) {
        this.builder = builder;
        Object list = entities == null ? null : entities.get("topics");
        for (Object topic : list == null ? List.of() : (List<?>) list)
            topics.add((String) ((Map<?, ?>) topic).get("Name"));
    }

    // Peeks have receivers of their own: a peek without a sequence number goes on after the last one.
    ServiceBusReceiverClient receiver(Map<?, ?> step) {
        String key = List.of("entity", "subscription", "subQueue", "session", "mode").stream()
                         .map(k -> String.valueOf(step.get(k))).toList() + ("peek".equals(step.get("op")) ? " peek" : "");
        return receivers.computeIfAbsent(key, unused -> openReceiver(step));
    }

    private ServiceBusReceiverClient openReceiver(Map<?, ?> step) {
        String entity = (String) step.get("entity");
        String subscription = (String) step.get("subscription");
        ServiceBusReceiveMode mode = "receiveAndDelete".equals(step.get("mode")) ? ServiceBusReceiveMode.RECEIVE_AND_DELETE
                                                                                : ServiceBusReceiveMode.PEEK_LOCK;
        ServiceBusReceiverClient receiver;
        if (step.containsKey("session")) {
            var sessions = builder.sessionReceiver().receiveMode(mode).maxAutoLockRenewDuration(Duration.ZERO);
            ServiceBusSessionReceiverClient client = (subscription == null ? sessions.queueName(entity)
                                                      : sessions.topicName(entity).subscriptionName(subscription)).buildClient();
            closing.add(client);
            receiver = "next".equals(step.get("session")) ? client.acceptNextSession() : client.acceptSession((String) step.get("session"));
        } else {
            var plain = builder.receiver().receiveMode(mode).maxAutoLockRenewDuration(Duration.ZERO);
            if ("deadLetter".equals(step.get("subQueue")))
                plain.subQueue(SubQueue.DEAD_LETTER_QUEUE);
            receiver = (subscription == null ? plain.queueName(entity) : plain.topicName(entity).subscriptionName(subscription)).buildClient();
        }
        closing.add(receiver);
        return receiver;
    }

    ServiceBusSenderClient sender(String entity) {
        return senders.computeIfAbsent(entity, name -> {
            var sender = builder.sender();
            ServiceBusSenderClient client = (topics.contains(name) ? sender.topicName(name) : sender.queueName(name)).buildClient();
            closing.add(client);
            return client;
        });
    }

    ServiceBusRuleManagerClient rules(Map<?, ?> step) {
        ServiceBusRuleManagerClient client = builder.ruleManager().topicName((String) step.get("entity"))
                                                 .subscriptionName((String) step.get("subscription")).buildClient();
        closing.add(client);
        return client;
    }

    @Override
    public void close() throws Exception {
        for (int i = closing.size() - 1; i >= 0; --i)
            closing.get(i).close();
    }
}
