package com.github.agent_hosting.agenthosting.testing;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Secrets as the engine serializes them, {@code { <signature key>: <secret signature>, "value": ... }}: the form
 * {@link MockRules#checkAgent} and {@link MockOutputs#agentOutputs} take and give, so they read inputs and mark
 * outputs as the provider does. pulumi-java 1.16's mock monitor hands the mocks plain inputs (it drops the
 * secret marks), so under {@code PulumiTest} no input is secret; the model applies the marks when it gets them.
 */
final class MockSecrets {
    private MockSecrets() {}

    private static String key() {
        return MockRules.at(MockRules.MODEL, "engine", "signatureKey");
    }

    private static String signature() {
        return MockRules.at(MockRules.MODEL, "engine", "secret");
    }

    static boolean isSecret(Object value) {
        return value instanceof Map && signature().equals(((Map<?, ?>) value).get(key()));
    }

    static Map<String, Object> asSecret(Object value) {
        Map<String, Object> secret = new LinkedHashMap<>();
        secret.put(key(), signature());
        secret.put("value", value);
        return secret;
    }

    /** The value as a provider receives it: secrets as their plain values. */
    @SuppressWarnings("unchecked")
    static Object plain(Object value) {
        if (isSecret(value)) return plain(((Map<String, Object>) value).get("value"));
        if (value instanceof Map) {
            Map<String, Object> plain = new LinkedHashMap<>();
            for (Map.Entry<String, Object> e : ((Map<String, Object>) value).entrySet()) plain.put(e.getKey(), plain(e.getValue()));
            return plain;
        }
        if (value instanceof Collection) {
            List<Object> items = new ArrayList<>();
            for (Object item : (Collection<Object>) value) items.add(plain(item));
            return items;
        }
        return value;
    }

    private static boolean holdsSecret(Object value) {
        if (isSecret(value)) return true;
        if (value instanceof Map) for (Object member : ((Map<?, ?>) value).values()) if (holdsSecret(member)) return true;
        if (value instanceof Collection) for (Object item : (Collection<?>) value) if (holdsSecret(item)) return true;
        return false;
    }

    /** The inputs the program declared secret (a secret anywhere inside counts), in the field table's order. */
    static List<String> secretInputs(Map<String, Object> news) {
        List<String> names = new ArrayList<>();
        for (Map<String, Object> field : MockRules.fields()) if (holdsSecret(news.get((String) field.get("name")))) names.add((String) field.get("name"));
        return names;
    }

    /** A secret input's failure names the field in its reason, as the preview does, so no value is printed. */
    static List<MockRules.Failure> hideSecretValues(List<MockRules.Failure> failures, List<String> secret) {
        List<MockRules.Failure> hidden = new ArrayList<>();
        for (MockRules.Failure f : failures) {
            boolean isSecret = secret.contains(f.property.split("[.\\[]", 2)[0]);
            hidden.add(isSecret ? new MockRules.Failure("", f.property + " (a secret): " + f.reason) : f);
        }
        return hidden;
    }

    /**
     * The outputs marked as the provider marks them: a field the service reports at the top of its answer secret
     * when its input is, an output derived from an input (the image's digest) when that input is, the answer's
     * deployment and manifest when a sent input is, the secret inputs listed.
     */
    static Map<String, Object> withSecretMarks(Map<String, Object> outputs, List<String> secret) {
        if (secret.isEmpty()) return outputs;
        boolean sent = false;
        for (Map<String, Object> field : MockRules.fields()) {
            String name = (String) field.get("name");
            if (!secret.contains(name)) continue;
            sent = sent || "service".equals(field.get("sentTo"));
            if (Boolean.TRUE.equals(field.get("reportedAtTop")) && outputs.get(name) != null) outputs.put(name, asSecret(outputs.get(name)));
        }
        List<String> keys = new ArrayList<>();
        Map<String, List<String>> withInput = MockRules.at(MockRules.MODEL, "secrets", "withInput");
        for (Map.Entry<String, List<String>> e : withInput.entrySet()) if (secret.contains(e.getKey())) keys.addAll(e.getValue());
        if (sent) keys.addAll(MockRules.at(MockRules.MODEL, "secrets", "whenSentSecret"));
        for (String key : keys) if (outputs.get(key) != null) outputs.put(key, asSecret(outputs.get(key)));
        outputs.put(MockRules.at(MockRules.MODEL, "secrets", "inputsKey"), new ArrayList<>(secret));
        return outputs;
    }
}
