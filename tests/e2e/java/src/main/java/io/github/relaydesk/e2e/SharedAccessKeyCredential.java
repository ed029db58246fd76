// SPDX-License-Identifier: MIT
package io.github.relaydesk.e2e;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.TokenCredential;
import com.azure.core.credential.TokenRequestContext;
import reactor.core.publisher.Mono;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.Base64;

/**
 * A shared access key as a TokenCredential: the signature Service Bus documents
 * (HMAC-SHA256 of the URL-encoded resource, "\n" and the expiry, under the key). What a Java user
 * writes to give ServiceBusAdministrationClientBuilder.credential(namespace, credential) a key:
 * its connectionString() keeps only the endpoint's host, so a namespace on another port than
 * 443 is given this way, "localhost:PORT" (docs/harness.md "Service Bus management").
 * The resource signed is the namespace, https://HOST:PORT: the SDK's own key credential (internal to
 * it) signs https://HOST without the port, which covers a namespace on 443 only.
 */
final class SharedAccessKeyCredential implements TokenCredential {
    private final String resource;
    private final String keyName;
    private final String key;

    SharedAccessKeyCredential(String resource, String keyName, String key) {
        this.resource = resource;
        this.keyName = keyName;
        this.key = key;
    }

    @Override
    public Mono<AccessToken> getToken(TokenRequestContext request) {
        return Mono.fromCallable(() -> token(resource));   // (the SDK asks for https://servicebus.azure.net/.default)
    }

    private AccessToken token(String resource) throws Exception {
        OffsetDateTime expiry = OffsetDateTime.now().plusHours(1);
        String encoded = URLEncoder.encode(resource, StandardCharsets.UTF_8);
        String toSign = encoded + "\n" + expiry.toEpochSecond();
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        String signature = Base64.getEncoder().encodeToString(mac.doFinal(toSign.getBytes(StandardCharsets.UTF_8)));
        return new AccessToken("SharedAccessSignature sr=" + encoded + "&sig=" + URLEncoder.encode(signature, StandardCharsets.UTF_8)
                               + "&se=" + expiry.toEpochSecond() + "&skn=" + keyName, expiry);
    }
}
