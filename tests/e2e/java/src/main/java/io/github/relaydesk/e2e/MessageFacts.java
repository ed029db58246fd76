// SPDX-License-Identifier: MIT
package io.github.relaydesk.e2e;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Messages as the shared table writes them: what a send step makes, what a receive step checks. */
final class MessageFacts {
    private MessageFacts() {}

    static ServiceBusMessage message(Map<?, ?> spec) {
        ServiceBusMessage message = new ServiceBusMessage((String) spec.get("body"));
        if (spec.get("subject") != null)
            message.setSubject((String) spec.get("subject"));
        if (spec.get("messageId") != null)
            message.setMessageId((String) spec.get("messageId"));
        if (spec.get("sessionId") != null)
            message.setSessionId((String) spec.get("sessionId"));
        if (spec.get("timeToLiveSeconds") != null)
            message.setTimeToLive(Duration.ofSeconds(((Number) spec.get("timeToLiveSeconds")).longValue()));
        Map<?, ?> properties = (Map<?, ?>) spec.get("applicationProperties");
        if (properties != null)
            properties.forEach((key, value) -> message.getApplicationProperties().put((String) key, value));
        return message;
    }

    /** The fields of `message` that `expected` names. */
    static Map<String, Object> of(ServiceBusReceivedMessage message, Map<?, ?> expected) {
        Map<String, Object> facts = new LinkedHashMap<>();
        for (Object field : expected.keySet()) {
            facts.put((String) field, switch ((String) field) {
                case "body" -> message.getBody().toString();
                case "subject" -> message.getSubject();
                case "messageId" -> message.getMessageId();
                case "sessionId" -> message.getSessionId();
                case "deliveryCount" -> message.getDeliveryCount();
                case "applicationProperties" -> message.getApplicationProperties();
                case "deadLetterReason" -> message.getDeadLetterReason();
                case "deadLetterErrorDescription" -> message.getDeadLetterErrorDescription();
                default -> throw new IllegalArgumentException("unknown field " + field);
            });
        }
        return facts;
    }

    /** A value compared by content: integral numbers as long, maps in key order. */
    static Object normal(Object value) {
        if (value instanceof Number number)
            return number.doubleValue() == Math.rint(number.doubleValue()) ? (Object) number.longValue() : (Object) number.doubleValue();
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> sorted = new TreeMap<>();
            map.forEach((key, each) -> sorted.put(String.valueOf(key), normal(each)));
            return sorted;
        }
        if (value instanceof List<?> list) {
            List<Object> each = new ArrayList<>();
            list.forEach(item -> each.add(normal(item)));
            return each;
        }
        return value;
    }
}
