package com.github.agent_hosting.agenthosting.testing;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One page of getAgentLogs over an agent's mocked lines, as the service answers it (newest first, ten at most, by default). */
public final class MockLogs {
    private MockLogs() {}

    /** One mocked log line: a timestamp (ISO 8601, up to nanoseconds) null means one second after the line before it; a deployment null means the agent's active one. */
    public static final class Line {
        public final String log;
        public final String timestamp;
        public final String deploymentId;

        public Line(String log, String timestamp, String deploymentId) {
            this.log = log;
            this.timestamp = timestamp;
            this.deploymentId = deploymentId;
        }

        public static Line of(String log) {
            return new Line(log, null, null);
        }
    }

    private static final class Entry {
        final long seconds;
        final int nanos;
        final String deploymentId;
        final String log;

        Entry(Instant at, String deploymentId, String log) {
            this.seconds = at.getEpochSecond();
            this.nanos = at.getNano();
            this.deploymentId = deploymentId;
            this.log = log;
        }
    }

    private static Long number(Map<String, Object> args, String key) {
        Object value = args.get(key);
        return value instanceof Number ? ((Number) value).longValue() : null;
    }

    static Map<String, Object> page(List<Line> lines, String activeDeployment, Map<String, Object> args) {
        Instant first = Instant.parse(MockRules.<String>at(MockRules.MODEL, "service", "time"));
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Line line = lines.get(i);
            Instant at = line.timestamp == null ? first.plusSeconds(i) : Instant.parse(line.timestamp);
            entries.add(new Entry(at, line.deploymentId != null ? line.deploymentId : activeDeployment == null ? "" : activeDeployment, line.log));
        }
        entries.sort(Comparator.<Entry>comparingLong(e -> e.seconds).thenComparingInt(e -> e.nanos));
        Long start = number(args, "startTime");
        Long end = number(args, "endTime");
        Object deployment = args.get("deploymentId");
        Object query = args.get("query");
        List<Entry> matching = new ArrayList<>();
        for (Entry e : entries) {
            if (start != null && (e.seconds < start || (e.seconds == start && e.nanos == 0))) continue;
            if (end != null && e.seconds >= end) continue;
            if (deployment != null && !deployment.equals(e.deploymentId)) continue;
            if (query != null && !e.log.toLowerCase().contains(query.toString().toLowerCase())) continue;
            matching.add(e);
        }
        if (!"asc".equals(args.get("order"))) Collections.reverse(matching);
        long offset = number(args, "offset") == null ? 0 : number(args, "offset");
        long limit = number(args, "limit") == null ? 10 : number(args, "limit");
        List<Object> logs = new ArrayList<>();
        DateTimeFormatter format = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss").withZone(ZoneOffset.UTC);
        for (long i = offset; i < matching.size() && i < offset + limit; i++) {
            Entry e = matching.get((int) i);
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("log", e.log);
            entry.put("timestamp", format.format(Instant.ofEpochSecond(e.seconds)) + String.format(".%09dZ", e.nanos));
            logs.add(entry);
        }
        Map<String, Object> total = new LinkedHashMap<>();
        total.put("value", matching.size());
        total.put("relation", "eq");
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("total", total);
        result.put("logs", logs);
        return result;
    }
}
