package com.github.agent_hosting.agenthosting.testing;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The rules the Agent's field table states as data, each refused with the reason the provider's own check
 * gives, the secret-set references against the mocked sets, and the outputs a create stores, read from the
 * mock model ({@link MockModel}, generated from the provider's registry by scripts/lib/mock-model.mjs). The
 * rules the table does not state as data (patterns, lengths, integer ranges, minAgents &lt;= maxAgents) are
 * the preview's only.
 */
public final class MockRules {
    private MockRules() {}

    /** One refused input: the property the preview names and its reason. */
    public static final class Failure {
        public final String property;
        public final String reason;

        Failure(String property, String reason) {
            this.property = property;
            this.reason = reason;
        }

        @Override
        public String toString() {
            return property.isEmpty() ? reason : property + ": " + reason;
        }
    }

    @SuppressWarnings("unchecked")
    static final Map<String, Object> MODEL = new Gson().fromJson(MockModel.JSON, Map.class);

    @SuppressWarnings("unchecked")
    static <T> T at(Object node, String... path) {
        Object value = node;
        for (String key : path) value = value instanceof Map ? ((Map<String, Object>) value).get(key) : null;
        return (T) value;
    }

    static List<Map<String, Object>> fields() {
        return at(MODEL, "fields");
    }

    private static boolean isInteger(Object v) {
        return v instanceof Number && ((Number) v).doubleValue() == Math.rint(((Number) v).doubleValue());
    }

    private static boolean hasType(String type, Object v) {
        switch (type) {
            case "string": return v instanceof String;
            case "boolean": return v instanceof Boolean;
            case "integer": return isInteger(v);
            case "number": return v instanceof Number;
            case "array": return v instanceof Collection;
            case "object": return v instanceof Map;
            default: return false;
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Failure> fieldFailures(Map<String, Object> field, Object value) {
        String name = (String) field.get("name");
        List<Failure> failures = new ArrayList<>();
        Map<String, Object> enumeration = (Map<String, Object>) field.get("enum");
        if (enumeration != null) {
            if (!((List<Object>) enumeration.get("values")).contains(value)) failures.add(new Failure(name, (String) enumeration.get("reason")));
            return failures;
        }
        if (!hasType((String) field.get("type"), value)) {
            failures.add(new Failure(name, (String) field.get("typeReason")));
            return failures;
        }
        if (value instanceof Collection) {
            int i = 0;
            for (Object item : (Collection<Object>) value) {
                if (!(item instanceof String)) failures.add(new Failure(name + "[" + i + "]", (String) field.get("itemsReason")));
                i++;
            }
        }
        List<Map<String, Object>> members = (List<Map<String, Object>>) field.get("properties");
        if (members != null && value instanceof Map) {
            Map<String, Object> record = (Map<String, Object>) value;
            List<String> known = new ArrayList<>();
            for (Map<String, Object> member : members) {
                String memberName = (String) member.get("name");
                known.add(memberName);
                Object given = record.get(memberName);
                if (given == null) failures.add(new Failure(name + "." + memberName, (String) member.get("requiredReason")));
                else if (!hasType((String) member.get("type"), given)) failures.add(new Failure(name + "." + memberName, (String) member.get("typeReason")));
            }
            for (String key : new TreeMap<>(record).keySet()) {
                if (!known.contains(key)) failures.add(new Failure(name, ((String) field.get("unknownMemberReason")).replace("{key}", key)));
            }
        }
        return failures;
    }

    /** Every failure of the data-stated rules, then (with secret sets given) of the secret sets the inputs name. */
    public static List<Failure> checkAgent(Map<String, Object> news, Map<String, List<String>> secretSets) {
        List<Failure> failures = new ArrayList<>();
        Map<String, Map<String, Object>> byName = new LinkedHashMap<>();
        for (Map<String, Object> field : fields()) {
            String name = (String) field.get("name");
            byName.put(name, field);
            if (Boolean.TRUE.equals(field.get("required")) && news.get(name) == null) failures.add(new Failure(name, (String) field.get("requiredReason")));
        }
        for (Map.Entry<String, Object> entry : new TreeMap<>(news).entrySet()) {
            if (entry.getKey().startsWith("__") || entry.getValue() == null) continue;
            Map<String, Object> field = byName.get(entry.getKey());
            if (field == null) failures.add(new Failure(entry.getKey(), at(MODEL, "unknownFieldReason")));
            else failures.addAll(fieldFailures(field, entry.getValue()));
        }
        Object required = news.get("requiredSecrets");
        if (required instanceof Collection && !((Collection<?>) required).isEmpty() && news.get("secretSet") == null) {
            failures.add(new Failure("requiredSecrets", at(MODEL, "references", "requiredWithoutSet")));
        }
        if (secretSets != null && failures.isEmpty()) failures.addAll(referenceFailures(news, secretSets));
        return failures;
    }

    private static List<Failure> referenceFailures(Map<String, Object> news, Map<String, List<String>> secretSets) {
        List<Failure> failures = new ArrayList<>();
        List<String> setFields = at(MODEL, "references", "secretSetFields");
        for (String field : setFields) {
            if (!(news.get(field) instanceof String)) continue;
            String name = (String) news.get(field);
            List<String> has = secretSets.get(name);
            if (has == null) {
                failures.add(new Failure(field, MockRules.<String>at(MODEL, "references", "missingSet").replace("{set}", name)));
                continue;
            }
            if (!field.equals("secretSet") || !(news.get("requiredSecrets") instanceof Collection)) continue;
            List<String> missing = new ArrayList<>();
            for (Object wanted : (Collection<?>) news.get("requiredSecrets")) if (wanted instanceof String && !has.contains(wanted)) missing.add((String) wanted);
            if (missing.isEmpty()) continue;
            String template = at(MODEL, "references", missing.size() == 1 ? "lacksOne" : "lacksMany");
            String listed = has.isEmpty() ? at(MODEL, "references", "noFields") : String.join(", ", has);
            failures.add(new Failure(field, template.replace("{set}", name).replace("{missing}", String.join(", ", missing)).replace("{has}", listed)));
        }
        return failures;
    }

    /** The value with its maps' keys sorted and whole numbers as integers, so its JSON is the TypeScript mocks'. */
    @SuppressWarnings("unchecked")
    private static Object canonical(Object value) {
        if (value instanceof Map) {
            Map<String, Object> sorted = new TreeMap<>();
            for (Map.Entry<String, Object> e : ((Map<String, Object>) value).entrySet()) sorted.put(e.getKey(), canonical(e.getValue()));
            return sorted;
        }
        if (value instanceof Collection) {
            List<Object> items = new ArrayList<>();
            for (Object item : (Collection<Object>) value) items.add(canonical(item));
            return items;
        }
        if (isInteger(value) && !(value instanceof Integer) && !(value instanceof Long)) return ((Number) value).longValue();
        return value;
    }

    /** {@code <prefix>-<12 hex digits>} of the SHA-256 of the parts' JSON, as the TypeScript mocks derive it. */
    static String derivedId(String prefix, Object... parts) {
        Gson gson = new GsonBuilder().disableHtmlEscaping().create();
        String text = gson.toJson(canonical(java.util.Arrays.asList(parts)));
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            StringBuilder hex = new StringBuilder();
            for (byte b : digest) hex.append(String.format("%02x", b));
            return prefix + "-" + hex.substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
