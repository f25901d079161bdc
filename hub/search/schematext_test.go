package search

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestParamTextWalksTheSchema(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{
		"repo":{"type":"string","description":"Owner/name."},
		"labels":{"type":"array","items":{"type":"object","properties":{"color":{"type":"string"}}}},
		"when":{"anyOf":[{"type":"object","properties":{"date":{"type":"string"}}}]},
		"opts":{"$ref":"#/$defs/o"}},
		"$defs":{"o":{"type":"object","properties":{"depth":{"type":"integer","description":"How deep."}}}}}`)
	names, descs := paramText(schema)
	want := []string{"labels", "color", "opts", "repo", "when", "date", "depth"}
	if !slices.Equal(names, want) {
		t.Errorf("names %v, want %v", names, want)
	}
	if !slices.Equal(descs, []string{"Owner/name.", "How deep."}) {
		t.Errorf("descriptions %v", descs)
	}
	if n, d := paramText(json.RawMessage(`not json`)); n != nil || d != nil {
		t.Errorf("invalid schema gave %v %v", n, d)
	}
}

func TestParamTextStopsOnDeepRecursion(t *testing.T) {
	deep := `{"type":"string"}`
	for i := 0; i < 50; i++ {
		deep = `{"type":"object","properties":{"p":` + deep + `}}`
	}
	names, _ := paramText(json.RawMessage(deep))
	if len(names) != maxSchemaDepth+1 {
		t.Errorf("walked %d levels, want %d", len(names), maxSchemaDepth+1)
	}
}
