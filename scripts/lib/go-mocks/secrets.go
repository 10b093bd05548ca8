package agenthostingtest

import (
	"regexp"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
)

// Secrets as the engine serializes them, { <signature key>: <secret signature>, "value": ... }: the form the
// model's functions take and give, so CheckAgent and AgentOutputs read a program's inputs and mark its outputs
// as the provider does, and a test can hand them JSON.

func secretSignature(v interface{}) (interface{}, bool) {
	record, ok := v.(map[string]interface{})
	if ok && record[model.Engine.SignatureKey] == model.Engine.Secret {
		return record["value"], true
	}
	return nil, false
}

func asSecret(v interface{}) map[string]interface{} {
	return map[string]interface{}{model.Engine.SignatureKey: model.Engine.Secret, "value": v}
}

// plainOf is the value as a provider receives it: secrets as their plain values.
func plainOf(v interface{}) interface{} {
	if inner, secret := secretSignature(v); secret {
		return plainOf(inner)
	}
	switch t := v.(type) {
	case map[string]interface{}:
		plain := make(map[string]interface{}, len(t))
		for key, member := range t {
			plain[key] = plainOf(member)
		}
		return plain
	case []interface{}:
		items := make([]interface{}, len(t))
		for i, item := range t {
			items[i] = plainOf(item)
		}
		return items
	}
	return v
}

func holdsSecret(v interface{}) bool {
	if _, secret := secretSignature(v); secret {
		return true
	}
	switch t := v.(type) {
	case map[string]interface{}:
		for _, member := range t {
			if holdsSecret(member) {
				return true
			}
		}
	case []interface{}:
		for _, item := range t {
			if holdsSecret(item) {
				return true
			}
		}
	}
	return false
}

// secretInputs is the inputs the program declared secret (a secret anywhere inside counts), in the field table's order.
func secretInputs(news map[string]interface{}) []string {
	var names []string
	for _, f := range model.Fields {
		if holdsSecret(news[f.Name]) {
			names = append(names, f.Name)
		}
	}
	return names
}

var firstSegment = regexp.MustCompile(`^[^.\[]*`)

// hideSecretValues names a secret input's field in the failure's reason, as the preview does, so no value is printed.
func hideSecretValues(failures []Failure, secret []string) []Failure {
	for i, f := range failures {
		for _, name := range secret {
			if firstSegment.FindString(f.Property) == name {
				failures[i] = Failure{"", f.Property + " (a secret): " + f.Reason}
			}
		}
	}
	return failures
}

// withSecretMarks marks the outputs as the provider does: a field the service reports at the top of its answer
// secret when its input is, an output derived from an input (the image's digest) when that input is, the
// answer's deployment and manifest when a sent input is, the secret inputs listed.
func withSecretMarks(outputs map[string]interface{}, secret []string) map[string]interface{} {
	if len(secret) == 0 {
		return outputs
	}
	isSecret := map[string]bool{}
	for _, name := range secret {
		isSecret[name] = true
	}
	sent := false
	for _, f := range model.Fields {
		sent = sent || (f.SentTo == "service" && isSecret[f.Name])
		if f.ReportedAtTop && isSecret[f.Name] && outputs[f.Name] != nil {
			outputs[f.Name] = asSecret(outputs[f.Name])
		}
	}
	var keys []string
	for name, derived := range model.Secrets.WithInput {
		if isSecret[name] {
			keys = append(keys, derived...)
		}
	}
	if sent {
		keys = append(keys, model.Secrets.WhenSentSecret...)
	}
	for _, key := range keys {
		if outputs[key] != nil {
			outputs[key] = asSecret(outputs[key])
		}
	}
	listed := make([]interface{}, len(secret))
	for i, name := range secret {
		listed[i] = name
	}
	outputs[model.Secrets.InputsKey] = listed
	return outputs
}

// engineMap is the properties in the engine's serialized form: secrets and output values as the model reads them.
func engineMap(props resource.PropertyMap) map[string]interface{} {
	values := map[string]interface{}{}
	for key, value := range props {
		values[string(key)] = engineValue(value)
	}
	return values
}

func engineValue(v resource.PropertyValue) interface{} {
	switch {
	case v.IsSecret():
		return asSecret(engineValue(v.SecretValue().Element))
	case v.IsOutput():
		if v.OutputValue().Secret {
			return asSecret(engineValue(v.OutputValue().Element))
		}
		return engineValue(v.OutputValue().Element)
	case v.IsObject():
		return engineMap(v.ObjectValue())
	case v.IsArray():
		items := make([]interface{}, len(v.ArrayValue()))
		for i, item := range v.ArrayValue() {
			items[i] = engineValue(item)
		}
		return items
	case v.IsNull():
		return nil
	}
	return v.V
}

// propertyMap is the outputs as the SDK takes them back: the secrets the model marked as secret values.
func propertyMap(values map[string]interface{}) resource.PropertyMap {
	props := resource.PropertyMap{}
	for key, value := range values {
		props[resource.PropertyKey(key)] = propertyValue(value)
	}
	return props
}

func propertyValue(v interface{}) resource.PropertyValue {
	if inner, secret := secretSignature(v); secret {
		return resource.MakeSecret(propertyValue(inner))
	}
	switch t := v.(type) {
	case map[string]interface{}:
		return resource.NewObjectProperty(propertyMap(t))
	case []interface{}:
		items := make([]resource.PropertyValue, len(t))
		for i, item := range t {
			items[i] = propertyValue(item)
		}
		return resource.NewArrayProperty(items)
	}
	return resource.NewPropertyValue(v)
}
