// SPDX-License-Identifier: MIT
package io.github.relaydesk.e2e;

import com.azure.core.exception.HttpResponseException;
import com.azure.core.http.rest.PagedIterable;
import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClientBuilder;
import com.azure.messaging.servicebus.administration.models.CorrelationRuleFilter;
import com.azure.messaging.servicebus.administration.models.CreateQueueOptions;
import com.azure.messaging.servicebus.administration.models.CreateRuleOptions;
import com.azure.messaging.servicebus.administration.models.CreateSubscriptionOptions;
import com.azure.messaging.servicebus.administration.models.CreateTopicOptions;
import com.azure.messaging.servicebus.administration.models.RuleFilter;
import com.azure.messaging.servicebus.administration.models.RuleProperties;
import com.azure.messaging.servicebus.administration.models.SqlRuleAction;
import com.azure.messaging.servicebus.administration.models.SqlRuleFilter;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * One scenario of tests/e2e/servicebus_management_scenarios.json with the unchanged
 * ServiceBusAdministrationClient of azure-messaging-servicebus, over HTTPS to the management
 * port (the local CA in the JVM's trust store). The table's properties are the JavaScript SDK's
 * names: each becomes the setter or getter of that name (setLockDuration, isRequiresSession),
 * ISO 8601 durations become java.time.Duration.
 */
final class ManagementRun {
    // The table's (JavaScript's) property names that Java spells otherwise.
    private static final Map<String, String> JAVA_NAMES = Map.of("requiresSession", "sessionRequired");
    private static final Map<String, Integer> STATUS = Map.of("alreadyExists", 409, "notFound", 404, "badRequest", 400, "unauthorized", 401);
    private final RelaydeskServer server;
    private final String key;
    private final Set<String> topics = new HashSet<>();

    ManagementRun(RelaydeskServer server, String key) {
        this.server = server;
        this.key = key;
    }

    void step(Map<?, ?> step) throws Exception {
        String error = (String) step.get("error");
        if (error == null) {
            Object got = act(step);
            if (step.containsKey("expect"))
                check(step.get("expect"), got);
            return;
        }
        try {
            act(step);
        } catch (HttpResponseException refused) {
            if (refused.getResponse().getStatusCode() != STATUS.get(error))
                throw new AssertionError("expected " + error + ", got " + refused.getResponse().getStatusCode(), refused);
            if (step.containsKey("messageHas") && !refused.getMessage().contains((String) step.get("messageHas")))
                throw new AssertionError("the message lacks " + step.get("messageHas") + ": " + refused.getMessage());
            return;
        }
        throw new AssertionError("the step succeeded; " + error + " was expected");
    }

    private ServiceBusAdministrationClient admin(Map<?, ?> step) {
        String signingKey = step.containsKey("key") ? (String) step.get("key") : key;
        return new ServiceBusAdministrationClientBuilder()
            .credential("localhost:" + server.managementPort,
                        new SharedAccessKeyCredential("https://localhost:" + server.managementPort, "RootManageSharedAccessKey", signingKey))
            .buildClient();
    }

    private Object act(Map<?, ?> step) throws Exception {
        String op = (String) step.get("op");
        if (op.equals("send") || op.equals("receive"))
            return amqp(step, op);
        ServiceBusAdministrationClient admin = admin(step);
        String name = (String) step.get("name");
        String topic = (String) step.get("topic");
        String subscription = (String) step.get("subscription");
        Map<?, ?> options = (Map<?, ?>) step.get("options");
        return switch (op) {
            case "namespace" -> admin.getNamespaceProperties();
            case "createQueue" -> admin.createQueue(name, applied(new CreateQueueOptions(), options));
            case "getQueue" -> admin.getQueue(name);
            case "updateQueue" -> admin.updateQueue(applied(admin.getQueue(name), (Map<?, ?>) step.get("set")));
            case "deleteQueue" -> { admin.deleteQueue(name); yield null; }
            case "queueExists" -> admin.getQueueExists(name);
            case "listQueues" -> names(admin.listQueues(), step, p -> p.getName());
            case "queueRuntime" -> admin.getQueueRuntimeProperties(name);
            case "createTopic" -> { topics.add(name); yield admin.createTopic(name, applied(new CreateTopicOptions(), options)); }
            case "getTopic" -> admin.getTopic(name);
            case "updateTopic" -> admin.updateTopic(applied(admin.getTopic(name), (Map<?, ?>) step.get("set")));
            case "deleteTopic" -> { admin.deleteTopic(name); yield null; }
            case "topicExists" -> admin.getTopicExists(name);
            case "listTopics" -> names(admin.listTopics(), step, p -> p.getName());
            case "topicRuntime" -> admin.getTopicRuntimeProperties(name);
            case "createSubscription" -> admin.createSubscription(topic, name, applied(new CreateSubscriptionOptions(), options));
            case "getSubscription" -> admin.getSubscription(topic, name);
            case "updateSubscription" -> admin.updateSubscription(applied(admin.getSubscription(topic, name), (Map<?, ?>) step.get("set")));
            case "deleteSubscription" -> { admin.deleteSubscription(topic, name); yield null; }
            case "subscriptionExists" -> admin.getSubscriptionExists(topic, name);
            case "listSubscriptions" -> names(admin.listSubscriptions(topic), step, p -> p.getSubscriptionName());
            case "subscriptionRuntime" -> admin.getSubscriptionRuntimeProperties(topic, name);
            case "createRule" -> {
                CreateRuleOptions rule = new CreateRuleOptions().setFilter(filter((Map<?, ?>) step.get("filter")));
                if (step.containsKey("action"))
                    rule.setAction(new SqlRuleAction((String) ((Map<?, ?>) step.get("action")).get("sql")));
                yield admin.createRule(topic, name, subscription, rule);   // Java's order: topic, rule, subscription
            }
            case "getRule" -> admin.getRule(topic, subscription, name);
            case "updateRule" -> admin.updateRule(topic, subscription,
                                                  admin.getRule(topic, subscription, name).setFilter(filter((Map<?, ?>) step.get("filter"))));
            case "deleteRule" -> { admin.deleteRule(topic, subscription, name); yield null; }
            case "listRules" -> names(admin.listRules(topic, subscription), step, RuleProperties::getName);
            default -> throw new IllegalArgumentException("no step " + op);
        };
    }

    private Object amqp(Map<?, ?> step, String op) {
        ServiceBusClientBuilder builder = new ServiceBusClientBuilder().connectionString(server.connectionString());
        String entity = (String) step.get("entity");
        if (op.equals("send")) {
            List<ServiceBusMessage> messages = new ArrayList<>();
            for (Object each : (List<?>) step.get("messages"))
                messages.add(MessageFacts.message(each instanceof Map<?, ?> spec ? spec : Map.of("body", each)));
            try (ServiceBusSenderClient sender = (topics.contains(entity) ? builder.sender().topicName(entity)
                                                                          : builder.sender().queueName(entity)).buildClient()) {
                sender.sendMessages(messages);
            }
            return null;
        }
        var receivers = builder.receiver().receiveMode(ServiceBusReceiveMode.RECEIVE_AND_DELETE);
        var source = step.containsKey("subscription") ? receivers.topicName(entity).subscriptionName((String) step.get("subscription"))
                                                      : receivers.queueName(entity);
        List<String> bodies = new ArrayList<>();
        try (ServiceBusReceiverClient receiver = source.buildClient()) {
            int wanted = ((List<?>) step.get("expect")).size();
            while (bodies.size() < wanted) {
                int before = bodies.size();
                for (ServiceBusReceivedMessage message : receiver.receiveMessages(((Number) step.get("max")).intValue(), Duration.ofSeconds(2)))
                    bodies.add(message.getBody().toString());
                if (bodies.size() == before)
                    break;
            }
        }
        return bodies;
    }

    private static RuleFilter filter(Map<?, ?> spec) {
        return spec.containsKey("subject") ? new CorrelationRuleFilter().setLabel((String) spec.get("subject"))
                                           : new SqlRuleFilter((String) spec.get("sql"));
    }

    // The Java client asks for pages of 100 ($top=100) whatever iterableByPage's preferred size (its
    // own choice, not the service's): a pageSize step checks the names across its pages, in order.
    private static <T> Object names(PagedIterable<T> items, Map<?, ?> step, Function<T, String> name) {
        List<String> names = items.stream().map(name).toList();
        if (!step.containsKey("pageSize"))
            return names;
        List<Object> flattened = new ArrayList<>();
        for (Object page : (List<?>) step.get("expect"))
            flattened.addAll((List<?>) page);
        return flattened.equals(names) ? step.get("expect") : names;
    }

    /** `target` with each of `properties` set through its setter of that name. */
    private static <T> T applied(T target, Map<?, ?> properties) throws Exception {
        for (Map.Entry<?, ?> property : (properties == null ? Map.of() : properties).entrySet()) {
            String setter = "set" + capital((String) property.getKey());
            Method method = null;
            for (Method each : target.getClass().getMethods())
                if (each.getName().equals(setter) && each.getParameterCount() == 1)
                    method = each;
            if (method == null)
                throw new IllegalArgumentException(target.getClass().getSimpleName() + " has no " + setter);
            method.invoke(target, converted(property.getValue(), method.getParameterTypes()[0]));
        }
        return target;
    }

    private static Object converted(Object value, Class<?> type) {
        if (type == Duration.class)
            return Duration.parse((String) value);
        if (type == int.class || type == Integer.class)
            return ((Number) value).intValue();
        if (type == long.class || type == Long.class)
            return ((Number) value).longValue();
        return value;
    }

    private static void check(Object expected, Object got) throws Exception {
        if (!(expected instanceof Map<?, ?> fields)) {
            if (!Objects.equals(RelaydeskServer.parse(RelaydeskServer.json(expected)), RelaydeskServer.parse(RelaydeskServer.json(got))))
                throw new AssertionError("expected " + expected + ", got " + got);
            return;
        }
        Map<Object, Object> facts = new LinkedHashMap<>();
        for (Map.Entry<?, ?> field : fields.entrySet())
            facts.put(field.getKey(), fact(got, (String) field.getKey(), field.getValue()));
        if (!facts.equals(fields))
            throw new AssertionError("expected " + fields + ", got " + facts);
    }

    // The field as the table writes it: numbers as the table's, durations in its spelling when equal.
    private static Object fact(Object model, String field, Object want) throws Exception {
        Object value = null;
        for (String prefix : List.of("get", "is"))
            for (Method each : model.getClass().getMethods())
                if (each.getName().equals(prefix + capital(field)) && each.getParameterCount() == 0)
                    value = each.invoke(model);
        if (value instanceof SqlRuleFilter sql)
            return Map.of("sql", sql.getSqlExpression());
        if (value instanceof SqlRuleAction sql)
            return Map.of("sql", sql.getSqlExpression());
        if (value instanceof CorrelationRuleFilter correlation)
            return Map.of("subject", correlation.getLabel());
        if (value instanceof Duration duration)
            return want instanceof String text && Duration.parse(text).equals(duration) ? want : duration.toString();
        if (value instanceof Number number && want instanceof Number)
            return number.longValue() == ((Number) want).longValue() ? want : number;
        return value instanceof Boolean || value == null ? value : value.toString();
    }

    private static String capital(String tableName) {
        String name = JAVA_NAMES.getOrDefault(tableName, tableName);
        return Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }
}
