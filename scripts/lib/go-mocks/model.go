package agenthostingtest

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
)

// model.json is generated from the provider's registry (scripts/lib/mock-model.mjs): the rules of the Agent's
// field table, the data the provider's own check applies with its own reasons (kinds, lengths, patterns,
// ranges, enums, object members and their relations, list items, a field another needs), and how each sent
// field maps into the manifest.
//
//go:embed model.json
var modelJSON []byte

type modelField struct {
	Name           string         `json:"name"`
	Type           string         `json:"type"`
	Required       bool           `json:"required"`
	SentTo         string         `json:"sentTo"`
	Undeclared     string         `json:"undeclared"`
	Default        interface{}    `json:"default"`
	RequiredReason string         `json:"requiredReason"`
	Rules          fieldRules     `json:"rules"`
	Manifest       *modelManifest `json:"manifest"`
	ReportedAtTop  bool           `json:"reportedAtTop"`
}

type modelManifest struct {
	Path    []string          `json:"path"`
	Kind    string            `json:"kind"`
	Members map[string]string `json:"members"`
	LeftOut interface{}       `json:"leftOut"`
}

type mockModel struct {
	Resource struct {
		Name  string `json:"name"`
		Token string `json:"token"`
	} `json:"resource"`
	Fields             []modelField `json:"fields"`
	UnknownFieldReason string       `json:"unknownFieldReason"`
	References         struct {
		SecretSetFields []string `json:"secretSetFields"`
		MissingSet      string   `json:"missingSet"`
		LacksOne        string   `json:"lacksOne"`
		LacksMany       string   `json:"lacksMany"`
		NoFields        string   `json:"noFields"`
	} `json:"references"`
	Service struct {
		ManifestHead      map[string]string      `json:"manifestHead"`
		SpecExtras        map[string]interface{} `json:"specExtras"`
		ChosenWhenLeftOut map[string]interface{} `json:"chosenWhenLeftOut"`
		Time              string                 `json:"time"`
	} `json:"service"`
	Functions map[string]string `json:"functions"`
	Pinning   struct {
		Image  string `json:"image"`
		Input  string `json:"input"`
		Output string `json:"output"`
	} `json:"pinning"`
	Secrets struct {
		InputsKey      string              `json:"inputsKey"`
		WhenSentSecret []string            `json:"whenSentSecret"`
		WithInput      map[string][]string `json:"withInput"`
	} `json:"secrets"`
	Engine struct {
		SignatureKey string `json:"signatureKey"`
		Secret       string `json:"secret"`
	} `json:"engine"`
}

var model = func() mockModel {
	var m mockModel
	if err := json.Unmarshal(modelJSON, &m); err != nil {
		panic(fmt.Sprintf("agenthostingtest: model.json: %v", err))
	}
	return m
}()

// Failure is one refused input: the property the preview names and its reason.
type Failure struct {
	Property string
	Reason   string
}

// CheckAgent applies the rules the field table states as data, then (with secretSets given) the secret sets the
// inputs name, as the preview does: every failure, with the provider's own reason.
func CheckAgent(given map[string]interface{}, secretSets map[string][]string) []Failure {
	news := plainOf(given).(map[string]interface{})
	failures := ruleFailures(news)
	if secretSets != nil && len(failures) == 0 {
		failures = append(failures, referenceFailures(news, secretSets)...)
	}
	return hideSecretValues(failures, secretInputs(given))
}

func ruleFailures(news map[string]interface{}) []Failure {
	var failures []Failure
	byName := map[string]modelField{}
	for _, f := range model.Fields {
		byName[f.Name] = f
		if f.Required && news[f.Name] == nil {
			failures = append(failures, Failure{f.Name, f.RequiredReason})
		}
	}
	for _, key := range sortedKeys(news) {
		value := news[key]
		if strings.HasPrefix(key, "__") || value == nil {
			continue
		}
		f, known := byName[key]
		if !known {
			failures = append(failures, Failure{key, model.UnknownFieldReason})
			continue
		}
		failures = append(failures, fieldFailures(f, value)...)
	}
	for _, f := range model.Fields {
		needs, value := f.Rules.Needs, news[f.Name]
		if list, isList := value.([]interface{}); needs != nil && value != nil && !(isList && len(list) == 0) && news[needs.Field] == nil {
			failures = append(failures, Failure{f.Name, needs.Reason})
		}
	}
	return failures
}

func referenceFailures(news map[string]interface{}, secretSets map[string][]string) []Failure {
	refs := model.References
	var failures []Failure
	for _, field := range refs.SecretSetFields {
		name, ok := news[field].(string)
		if !ok {
			continue
		}
		has, exists := secretSets[name]
		if !exists {
			failures = append(failures, Failure{field, strings.ReplaceAll(refs.MissingSet, "{set}", name)})
			continue
		}
		required, ok := news["requiredSecrets"].([]interface{})
		if field != "secretSet" || !ok {
			continue
		}
		held := map[string]bool{}
		for _, h := range has {
			held[h] = true
		}
		var missing []string
		for _, r := range required {
			if s, isString := r.(string); isString && !held[s] {
				missing = append(missing, s)
			}
		}
		if len(missing) == 0 {
			continue
		}
		template := refs.LacksMany
		if len(missing) == 1 {
			template = refs.LacksOne
		}
		listed := strings.Join(has, ", ")
		if len(has) == 0 {
			listed = refs.NoFields
		}
		reason := strings.ReplaceAll(strings.ReplaceAll(template, "{set}", name), "{missing}", strings.Join(missing, ", "))
		failures = append(failures, Failure{field, strings.ReplaceAll(reason, "{has}", listed)})
	}
	return failures
}

// derivedID is `<prefix>-<12 hex digits>` of the SHA-256 of the parts' JSON (keys sorted), as the TypeScript mocks derive it.
func derivedID(prefix string, parts ...interface{}) string {
	var buffer bytes.Buffer
	encoder := json.NewEncoder(&buffer)
	encoder.SetEscapeHTML(false)
	if err := encoder.Encode(parts); err != nil {
		panic(err)
	}
	sum := sha256.Sum256(bytes.TrimRight(buffer.Bytes(), "\n"))
	return prefix + "-" + hex.EncodeToString(sum[:])[:12]
}

func toManifest(mapping *modelManifest, value interface{}) interface{} {
	if value == nil {
		return mapping.LeftOut
	}
	switch mapping.Kind {
	case "list":
		return []interface{}{value}
	case "members":
		renamed := map[string]interface{}{}
		for key, member := range value.(map[string]interface{}) {
			renamed[mapping.Members[key]] = member
		}
		return renamed
	}
	return value
}

func setAt(target map[string]interface{}, path []string, value interface{}) {
	for _, key := range path[:len(path)-1] {
		next, ok := target[key].(map[string]interface{})
		if !ok {
			next = map[string]interface{}{}
			target[key] = next
		}
		target = next
	}
	target[path[len(path)-1]] = value
}

func valueAt(source map[string]interface{}, path []string) interface{} {
	var node interface{} = source
	for _, key := range path {
		record, ok := node.(map[string]interface{})
		if !ok {
			return nil
		}
		node = record[key]
	}
	return node
}

// AgentOutputs is the id and the outputs a create stores for these (valid) inputs: the agent ready, unless the
// program does not wait for readiness.
func AgentOutputs(given map[string]interface{}) (string, map[string]interface{}) {
	return agentOutputs(given, nil, true)
}

// agentOutputs pins a tag-form image (unless the agent, or pinByDefault for an agent that does not say, says
// not) to the digest digests gives for it, else one derived from it.
func agentOutputs(given map[string]interface{}, digests map[string]string, pinByDefault bool) (string, map[string]interface{}) {
	news := plainOf(given).(map[string]interface{})
	inputs := map[string]interface{}{}
	for key, value := range news {
		if !strings.HasPrefix(key, "__") {
			inputs[key] = value
		}
	}
	body := map[string]interface{}{}
	for _, f := range model.Fields {
		if f.Default != nil && inputs[f.Name] == nil {
			inputs[f.Name] = f.Default
		}
		if f.SentTo == "service" && inputs[f.Name] != nil {
			body[f.Name] = inputs[f.Name]
		}
	}
	pinning := model.Pinning
	var pinned map[string]interface{}
	image, isString := inputs[pinning.Image].(string)
	pins, says := inputs[pinning.Input].(bool)
	if isString && !strings.Contains(image, "@") && ((says && pins) || (!says && pinByDefault)) {
		pinned = ImageDigest(image, digests)
		body[pinning.Image] = pinned["pinnedImage"]
	}
	service := model.Service
	spec := map[string]interface{}{}
	for _, f := range model.Fields {
		if f.SentTo != "service" || f.Manifest == nil {
			continue
		}
		var value interface{}
		if sent := body[f.Name]; sent == nil && f.Undeclared == "keep" {
			value = service.ChosenWhenLeftOut[f.Name]
		} else if sent != nil {
			value = toManifest(f.Manifest, sent)
		} else {
			value = toManifest(f.Manifest, f.Default)
		}
		if value != nil {
			setAt(spec, f.Manifest.Path, value)
		}
	}
	for key, value := range service.SpecExtras {
		spec[key] = value
	}
	name, _ := body["serviceName"].(string)
	ready := inputs["waitForReady"] != false
	deploymentID := derivedID("dep", body)
	head := service.ManifestHead
	outputs := map[string]interface{}{}
	for _, f := range model.Fields {
		if f.ReportedAtTop {
			outputs[f.Name] = valueAt(spec, f.Manifest.Path)
		} else if inputs[f.Name] != nil {
			outputs[f.Name] = inputs[f.Name]
		}
	}
	if pinned != nil {
		outputs[pinning.Output] = pinned["digest"]
	}
	for key, value := range map[string]interface{}{
		"name":                  name,
		"ready":                 ready,
		"activeDeploymentId":    deploymentID,
		"activeDeploymentReady": ready,
		"deployment":            map[string]interface{}{"id": deploymentID, "serviceId": derivedID("svc", name), "createdAt": service.Time, "updatedAt": service.Time},
		"manifest": map[string]interface{}{
			"apiVersion": head["apiVersion"],
			"kind":       head["kind"],
			"metadata":   map[string]interface{}{"name": name, "namespace": head["namespace"]},
			"spec":       spec,
		},
		"createdAt":           service.Time,
		"updatedAt":           service.Time,
		"activeSessionCount":  0.0,
		"available":           ready,
		"desiredDeploymentId": deploymentID,
	} {
		outputs[key] = value
	}
	return name, withSecretMarks(outputs, secretInputs(given))
}
