package com.github.agent_hosting.agenthosting.testing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The outputs a create stores for valid inputs, from the mock model's manifest mappings: the agent ready, unless the program does not wait. */
final class MockOutputs {
    private MockOutputs() {}

    @SuppressWarnings("unchecked")
    private static Object toManifest(Map<String, Object> mapping, Object value) {
        if (value == null) return mapping.get("leftOut");
        switch ((String) mapping.get("kind")) {
            case "list": return new ArrayList<>(Collections.singletonList(value));
            case "members": {
                Map<String, Object> renamed = new LinkedHashMap<>();
                Map<String, String> members = (Map<String, String>) mapping.get("members");
                for (Map.Entry<String, Object> e : ((Map<String, Object>) value).entrySet()) renamed.put(members.get(e.getKey()), e.getValue());
                return renamed;
            }
            default: return value;
        }
    }

    @SuppressWarnings("unchecked")
    private static void setAt(Map<String, Object> target, List<String> path, Object value) {
        for (String key : path.subList(0, path.size() - 1)) {
            Object next = target.get(key);
            if (!(next instanceof Map)) {
                next = new LinkedHashMap<String, Object>();
                target.put(key, next);
            }
            target = (Map<String, Object>) next;
        }
        target.put(path.get(path.size() - 1), value);
    }

    /** The id (the agent's name) and outputs of a create of these inputs. */
    static Map.Entry<String, Map<String, Object>> agentOutputs(Map<String, Object> given) {
        return agentOutputs(given, null, true);
    }

    /**
     * A tag-form image pinned (unless the agent, or {@code pinByDefault} for an agent that does not say, says not)
     * to the digest {@code digests} gives for it, else one derived from it.
     */
    @SuppressWarnings("unchecked")
    static Map.Entry<String, Map<String, Object>> agentOutputs(Map<String, Object> given, Map<String, String> digests, boolean pinByDefault) {
        Map<String, Object> news = (Map<String, Object>) MockSecrets.plain(given);
        Map<String, Object> inputs = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : news.entrySet()) if (!e.getKey().startsWith("__") && e.getValue() != null) inputs.put(e.getKey(), e.getValue());
        Map<String, Object> body = new LinkedHashMap<>();
        for (Map<String, Object> field : MockRules.fields()) {
            String name = (String) field.get("name");
            if (field.get("default") != null && inputs.get(name) == null) inputs.put(name, field.get("default"));
            if ("service".equals(field.get("sentTo")) && inputs.get(name) != null) body.put(name, inputs.get(name));
        }
        Map<String, String> pinning = MockRules.at(MockRules.MODEL, "pinning");
        Object image = inputs.get(pinning.get("image"));
        Object pins = inputs.get(pinning.get("input"));
        boolean pin = pins instanceof Boolean ? (Boolean) pins : pinByDefault;
        Map<String, Object> pinned = image instanceof String && !((String) image).contains("@") && pin ? MockDigests.imageDigest((String) image, digests) : null;
        if (pinned != null) body.put(pinning.get("image"), pinned.get("pinnedImage"));
        Map<String, Object> service = MockRules.at(MockRules.MODEL, "service");
        Map<String, Object> spec = new LinkedHashMap<>();
        for (Map<String, Object> field : MockRules.fields()) {
            Map<String, Object> mapping = (Map<String, Object>) field.get("manifest");
            if (!"service".equals(field.get("sentTo")) || mapping == null) continue;
            String name = (String) field.get("name");
            Object sent = body.get(name);
            Object value = sent == null && "keep".equals(field.get("undeclared"))
                ? ((Map<String, Object>) service.get("chosenWhenLeftOut")).get(name)
                : toManifest(mapping, sent != null ? sent : field.get("default"));
            if (value != null) setAt(spec, (List<String>) mapping.get("path"), value);
        }
        spec.putAll((Map<String, Object>) service.get("specExtras"));
        String name = (String) body.get("serviceName");
        boolean ready = !Boolean.FALSE.equals(inputs.get("waitForReady"));
        String deploymentId = MockRules.derivedId("dep", body);
        String time = (String) service.get("time");
        Map<String, String> head = (Map<String, String>) service.get("manifestHead");
        Map<String, Object> outputs = new LinkedHashMap<>();
        for (Map<String, Object> field : MockRules.fields()) {
            String fieldName = (String) field.get("name");
            if (Boolean.TRUE.equals(field.get("reportedAtTop"))) {
                Object node = spec;
                for (String key : (List<String>) ((Map<String, Object>) field.get("manifest")).get("path")) node = node instanceof Map ? ((Map<String, Object>) node).get(key) : null;
                outputs.put(fieldName, node);
            } else if (inputs.get(fieldName) != null) {
                outputs.put(fieldName, inputs.get(fieldName));
            }
        }
        if (pinned != null) outputs.put(pinning.get("output"), pinned.get("digest"));
        Map<String, Object> deployment = new LinkedHashMap<>();
        deployment.put("id", deploymentId);
        deployment.put("serviceId", MockRules.derivedId("svc", name));
        deployment.put("createdAt", time);
        deployment.put("updatedAt", time);
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", name);
        metadata.put("namespace", head.get("namespace"));
        Map<String, Object> manifest = new LinkedHashMap<>();
        manifest.put("apiVersion", head.get("apiVersion"));
        manifest.put("kind", head.get("kind"));
        manifest.put("metadata", metadata);
        manifest.put("spec", spec);
        outputs.put("name", name);
        outputs.put("ready", ready);
        outputs.put("activeDeploymentId", deploymentId);
        outputs.put("activeDeploymentReady", ready);
        outputs.put("deployment", deployment);
        outputs.put("manifest", manifest);
        outputs.put("createdAt", time);
        outputs.put("updatedAt", time);
        outputs.put("activeSessionCount", 0);
        outputs.put("available", ready);
        outputs.put("desiredDeploymentId", deploymentId);
        return Map.entry(name, MockSecrets.withSecretMarks(outputs, MockSecrets.secretInputs(given)));
    }
}
