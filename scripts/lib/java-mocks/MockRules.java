package com.github.agent_hosting.agenthosting.testing;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The rules of the Agent's field table, the data the provider's own check applies with its own reasons
 * (kinds, lengths, patterns, ranges, enums, object members and their relations, list items, a field another
 * needs), the secret-set references against the mocked sets, and the outputs a create stores, read from the
 * mock model ({@link MockModel}, generated from the provider's registry by scripts/lib/mock-model.mjs).
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
        return v instanceof Number && ((Number) v).doubleValue() == Math.rint(((Number) v).doubleValue()) && !Double.isInfinite(((Number) v).doubleValue());
    }

    private static boolean hasType(String type, Object v) {
        switch (type) {
            case "string": return v instanceof String;
            case "boolean": return v instanceof Boolean;
            case "integer": return isInteger(v);
            case "number": return v instanceof Number && !Double.isNaN(((Number) v).doubleValue());
            default: return false;
        }
    }

    private static final Map<String, Pattern> PATTERNS = new ConcurrentHashMap<>();

    /** The model's {@code $} is the end of the text; Java's also matches before a final line break, {@code \z} does not. */
    private static boolean found(String source, String text) {
        return PATTERNS.computeIfAbsent(source, s -> Pattern.compile(s.replace("$", "\\z"))).matcher(text).find();
    }

    private static boolean within(Map<String, Object> bounds, double n) {
        Object min = bounds.get("min");
        Object max = bounds.get("max");
        return (min == null || n >= ((Number) min).doubleValue()) && (max == null || n <= ((Number) max).doubleValue());
    }

    @SuppressWarnings("unchecked")
    private static boolean passes(Map<String, Object> test, Object value) {
        if (test.containsKey("is")) return hasType((String) test.get("is"), value);
        if (test.containsKey("oneOf")) return value instanceof String && ((List<Object>) test.get("oneOf")).contains(value);
        if (test.containsKey("range")) return hasType("number", value) && within((Map<String, Object>) test.get("range"), ((Number) value).doubleValue());
        if (!(value instanceof String)) return false;
        String text = (String) value;
        // Lengths count UTF-16 code units, as JavaScript does (and Java's String).
        if (test.containsKey("length")) return within((Map<String, Object>) test.get("length"), text.length());
        if (test.containsKey("lacks")) return !found((String) test.get("lacks"), text);
        if (test.containsKey("when") && !found((String) test.get("when"), text)) return true;
        if (test.containsKey("unless") && found((String) test.get("unless"), text)) return true;
        return found((String) test.get("matches"), text);
    }

    /** The reason of the first test the value fails, or null when it passes them all. */
    private static String firstFailure(List<Map<String, Object>> tests, Object value) {
        if (tests == null) return null;
        for (Map<String, Object> test : tests) if (!passes(test, value)) return (String) test.get("reason");
        return null;
    }

    @SuppressWarnings("unchecked")
    private static List<Failure> objectFailures(String name, Map<String, Object> rules, Object value) {
        List<Failure> failures = new ArrayList<>();
        if (!(value instanceof Map)) {
            failures.add(new Failure(name, (String) rules.get("notObject")));
            return failures;
        }
        Map<String, Object> record = (Map<String, Object>) value;
        List<Map<String, Object>> members = (List<Map<String, Object>>) rules.get("members");
        List<String> names = new ArrayList<>();
        for (Map<String, Object> member : members) names.add((String) member.get("name"));
        for (String key : new TreeMap<>(record).keySet()) {
            if (!names.contains(key)) failures.add(new Failure(name, ((String) rules.get("unknownKey")).replace("{key}", key)));
        }
        Set<String> failed = new HashSet<>();
        for (Map<String, Object> member : members) {
            String memberName = (String) member.get("name");
            String reason = record.containsKey(memberName)
                ? firstFailure((List<Map<String, Object>>) member.get("tests"), record.get(memberName))
                : (String) rules.get("missing");
            if (reason == null) continue;
            failed.add(memberName);
            failures.add(new Failure(name + "." + memberName, reason));
        }
        for (Map<String, Object> relation : (List<Map<String, Object>>) rules.get("relations")) {
            String low = (String) relation.get("member");
            String high = (String) relation.get("atMost");
            if (failed.contains(low) || failed.contains(high)) continue;
            if (((Number) record.get(low)).doubleValue() > ((Number) record.get(high)).doubleValue()) failures.add(new Failure(name + "." + low, (String) relation.get("reason")));
        }
        return failures;
    }

    @SuppressWarnings("unchecked")
    private static List<Failure> listFailures(String name, Map<String, Object> rules, Object value) {
        List<Failure> failures = new ArrayList<>();
        if (!(value instanceof Collection)) {
            failures.add(new Failure(name, (String) rules.get("notList")));
            return failures;
        }
        Set<Object> seen = new HashSet<>();
        int index = 0;
        for (Object item : (Collection<Object>) value) {
            String reason = firstFailure((List<Map<String, Object>>) rules.get("items"), item);
            if (reason == null && seen.contains(item)) reason = ((String) rules.get("duplicate")).replace("{item}", (String) item);
            if (reason != null) failures.add(new Failure(name + "[" + index + "]", reason));
            else seen.add(item);
            index++;
        }
        return failures;
    }

    /** The failures of a declared value of the field: its rules, as the field table states them. */
    @SuppressWarnings("unchecked")
    private static List<Failure> fieldFailures(Map<String, Object> field, Object value) {
        String name = (String) field.get("name");
        Map<String, Object> rules = (Map<String, Object>) field.get("rules");
        List<Failure> failures = new ArrayList<>();
        String reason = firstFailure((List<Map<String, Object>>) rules.get("tests"), value);
        if (reason != null) {
            failures.add(new Failure(name, reason));
            return failures;
        }
        if (rules.containsKey("object")) failures.addAll(objectFailures(name, (Map<String, Object>) rules.get("object"), value));
        if (rules.containsKey("list")) failures.addAll(listFailures(name, (Map<String, Object>) rules.get("list"), value));
        return failures;
    }

    /** Every failure of the field table's rules, then (with secret sets given) of the secret sets the inputs name. */
    @SuppressWarnings("unchecked")
    public static List<Failure> checkAgent(Map<String, Object> given, Map<String, List<String>> secretSets) {
        Map<String, Object> news = (Map<String, Object>) MockSecrets.plain(given);
        List<Failure> failures = ruleFailures(news);
        if (secretSets != null && failures.isEmpty()) failures.addAll(referenceFailures(news, secretSets));
        return MockSecrets.hideSecretValues(failures, MockSecrets.secretInputs(given));
    }

    private static List<Failure> ruleFailures(Map<String, Object> news) {
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
        for (Map<String, Object> field : fields()) {
            Map<String, Object> needs = at(field, "rules", "needs");
            Object value = news.get((String) field.get("name"));
            boolean emptyList = value instanceof Collection && ((Collection<?>) value).isEmpty();
            if (needs != null && value != null && !emptyList && news.get((String) needs.get("field")) == null) {
                failures.add(new Failure((String) field.get("name"), (String) needs.get("reason")));
            }
        }
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
