package agenthostingtest

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode/utf16"
)

// The rules of a field as the field table states them (src/client/field-rules.ts reads the same data):
// tests of a value, an object's members and the relations between them, a list's items, another field
// it needs. A pattern's `$` is the end of the text, as in Go.

type bounds struct {
	Min *float64 `json:"min"`
	Max *float64 `json:"max"`
}

func (b *bounds) holds(n float64) bool {
	return (b.Min == nil || n >= *b.Min) && (b.Max == nil || n <= *b.Max)
}

// valueTest is one test of a value; the value fails Reason when it does not pass.
type valueTest struct {
	Is      string   `json:"is"`
	Length  *bounds  `json:"length"`
	Matches *string  `json:"matches"`
	When    *string  `json:"when"`
	Unless  *string  `json:"unless"`
	Lacks   *string  `json:"lacks"`
	Range   *bounds  `json:"range"`
	OneOf   []string `json:"oneOf"`
	Reason  string   `json:"reason"`
}

type memberRules struct {
	Name  string      `json:"name"`
	Tests []valueTest `json:"tests"`
}

type memberRelation struct {
	Member string `json:"member"`
	AtMost string `json:"atMost"`
	Reason string `json:"reason"`
}

type objectRules struct {
	Members    []memberRules    `json:"members"`
	Relations  []memberRelation `json:"relations"`
	NotObject  string           `json:"notObject"`
	UnknownKey string           `json:"unknownKey"`
	Missing    string           `json:"missing"`
}

type listRules struct {
	NotList   string      `json:"notList"`
	Items     []valueTest `json:"items"`
	Duplicate string      `json:"duplicate"`
}

type fieldRules struct {
	Tests  []valueTest  `json:"tests"`
	Object *objectRules `json:"object"`
	List   *listRules   `json:"list"`
	Needs  *struct {
		Field  string `json:"field"`
		Reason string `json:"reason"`
	} `json:"needs"`
}

var patterns sync.Map

func found(source, text string) bool {
	compiled, ok := patterns.Load(source)
	if !ok {
		compiled, _ = patterns.LoadOrStore(source, regexp.MustCompile(source))
	}
	return compiled.(*regexp.Regexp).MatchString(text)
}

func (t valueTest) passes(value interface{}) bool {
	switch {
	case t.Is != "":
		return hasType(t.Is, value)
	case t.OneOf != nil:
		text, ok := value.(string)
		for _, allowed := range t.OneOf {
			if ok && text == allowed {
				return true
			}
		}
		return false
	case t.Range != nil:
		n, ok := value.(float64)
		return ok && t.Range.holds(n)
	}
	text, ok := value.(string)
	switch {
	case !ok:
		return false
	case t.Length != nil:
		// Lengths count UTF-16 code units, as JavaScript does.
		return t.Length.holds(float64(len(utf16.Encode([]rune(text)))))
	case t.Lacks != nil:
		return !found(*t.Lacks, text)
	case t.When != nil && !found(*t.When, text):
		return true
	case t.Unless != nil && found(*t.Unless, text):
		return true
	}
	return found(*t.Matches, text)
}

// firstFailure is the reason of the first test the value fails, and whether it fails one.
func firstFailure(tests []valueTest, value interface{}) (string, bool) {
	for _, t := range tests {
		if !t.passes(value) {
			return t.Reason, true
		}
	}
	return "", false
}

func isInteger(v interface{}) bool {
	f, ok := v.(float64)
	return ok && f == math.Trunc(f) && !math.IsInf(f, 0)
}

func hasType(kind string, v interface{}) bool {
	switch kind {
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "integer":
		return isInteger(v)
	case "number":
		f, ok := v.(float64)
		return ok && !math.IsNaN(f)
	}
	return false
}

func sortedKeys(record map[string]interface{}) []string {
	keys := make([]string, 0, len(record))
	for key := range record {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	return keys
}

// fieldFailures is the failures of a declared value of the field: its rules, as the field table states them.
func fieldFailures(f modelField, value interface{}) []Failure {
	if reason, failed := firstFailure(f.Rules.Tests, value); failed {
		return []Failure{{f.Name, reason}}
	}
	var failures []Failure
	if f.Rules.Object != nil {
		failures = append(failures, objectFailures(f.Name, f.Rules.Object, value)...)
	}
	if f.Rules.List != nil {
		failures = append(failures, listFailures(f.Name, f.Rules.List, value)...)
	}
	return failures
}

func objectFailures(name string, rules *objectRules, value interface{}) []Failure {
	record, ok := value.(map[string]interface{})
	if !ok {
		return []Failure{{name, rules.NotObject}}
	}
	var failures []Failure
	members := map[string]bool{}
	for _, m := range rules.Members {
		members[m.Name] = true
	}
	for _, key := range sortedKeys(record) {
		if !members[key] {
			failures = append(failures, Failure{name, strings.ReplaceAll(rules.UnknownKey, "{key}", key)})
		}
	}
	failed := map[string]bool{}
	for _, m := range rules.Members {
		given, present := record[m.Name]
		reason, bad := rules.Missing, !present
		if present {
			reason, bad = firstFailure(m.Tests, given)
		}
		if bad {
			failed[m.Name] = true
			failures = append(failures, Failure{name + "." + m.Name, reason})
		}
	}
	for _, r := range rules.Relations {
		if !failed[r.Member] && !failed[r.AtMost] && record[r.Member].(float64) > record[r.AtMost].(float64) {
			failures = append(failures, Failure{name + "." + r.Member, r.Reason})
		}
	}
	return failures
}

func listFailures(name string, rules *listRules, value interface{}) []Failure {
	items, ok := value.([]interface{})
	if !ok {
		return []Failure{{name, rules.NotList}}
	}
	var failures []Failure
	seen := map[string]bool{}
	for i, item := range items {
		reason, bad := firstFailure(rules.Items, item)
		if text, isString := item.(string); !bad && isString && seen[text] {
			reason, bad = strings.ReplaceAll(rules.Duplicate, "{item}", text), true
		}
		if bad {
			failures = append(failures, Failure{fmt.Sprintf("%s[%d]", name, i), reason})
		} else if text, isString := item.(string); isString {
			seen[text] = true
		}
	}
	return failures
}
