package agenthostingtest

import (
	"regexp"
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
