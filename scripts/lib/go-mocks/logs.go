package agenthostingtest

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// LogLine is one mocked log line of an agent: Timestamp (RFC 3339, up to nanoseconds) empty means one second
// after the line before it (the first at the mocks' fixed time); DeploymentID empty means the agent's active deployment.
type LogLine struct {
	Log          string
	Timestamp    string
	DeploymentID string
}

type entry struct {
	ns           int64
	deploymentID string
	log          string
}

func nsOf(timestamp string) int64 {
	t, err := time.Parse(time.RFC3339Nano, timestamp)
	if err != nil {
		panic(fmt.Sprintf("agenthostingtest: log timestamp %q: %v", timestamp, err))
	}
	return t.UnixNano()
}

func isoOf(ns int64) string {
	t := time.Unix(0, ns).UTC()
	return t.Format("2006-01-02T15:04:05") + fmt.Sprintf(".%09dZ", t.Nanosecond())
}

func number(values map[string]interface{}, key string) (int64, bool) {
	f, ok := values[key].(float64)
	return int64(f), ok
}

// logPage is one page of getAgentLogs over the agent's lines, as the service answers it (newest first, ten at most, by default).
func logPage(lines []LogLine, activeDeployment string, args map[string]interface{}) map[string]interface{} {
	first := nsOf(model.Service.Time)
	entries := make([]entry, 0, len(lines))
	for i, line := range lines {
		ns := first + int64(i)*int64(time.Second)
		if line.Timestamp != "" {
			ns = nsOf(line.Timestamp)
		}
		deployment := line.DeploymentID
		if deployment == "" {
			deployment = activeDeployment
		}
		entries = append(entries, entry{ns, deployment, line.Log})
	}
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].ns < entries[j].ns })
	start, hasStart := number(args, "startTime")
	end, hasEnd := number(args, "endTime")
	deploymentID, byDeployment := args["deploymentId"].(string)
	needle, byQuery := args["query"].(string)
	var matching []entry
	for _, e := range entries {
		if (hasStart && e.ns <= start*int64(time.Second)) || (hasEnd && e.ns >= end*int64(time.Second)) {
			continue
		}
		if (byDeployment && e.deploymentID != deploymentID) || (byQuery && !strings.Contains(strings.ToLower(e.log), strings.ToLower(needle))) {
			continue
		}
		matching = append(matching, e)
	}
	if order, _ := args["order"].(string); order != "asc" {
		for i, j := 0, len(matching)-1; i < j; i, j = i+1, j-1 {
			matching[i], matching[j] = matching[j], matching[i]
		}
	}
	offset, _ := number(args, "offset")
	limit, hasLimit := number(args, "limit")
	if !hasLimit {
		limit = 10
	}
	logs := []interface{}{}
	for i := offset; i < int64(len(matching)) && i < offset+limit; i++ {
		logs = append(logs, map[string]interface{}{"log": matching[i].log, "timestamp": isoOf(matching[i].ns)})
	}
	return map[string]interface{}{"total": map[string]interface{}{"value": float64(len(matching)), "relation": "eq"}, "logs": logs}
}
