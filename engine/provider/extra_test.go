package provider

import (
	"encoding/json"
	"testing"
)

func TestExtraValues(t *testing.T) {
	n, ok := Normal(map[string]any{"a": json.Number("20"), "b": json.Number("20.5"), "c": []map[string]any{{"d": 1}}})
	want := map[string]any{"a": int64(20), "b": 20.5, "c": []any{map[string]any{"d": int64(1)}}}
	if !ok || !SameValue(n, want) {
		t.Fatalf("Normal = %#v, %v", n, ok)
	}
	if _, ok := n.(map[string]any)["a"].(int64); !ok {
		t.Fatal("a whole JSON number is not an int64")
	}
	if _, ok := Normal(struct{}{}); ok {
		t.Fatal("a value with no JSON form was accepted")
	}
	if !SameValue(int64(20), 20.0) || SameValue(int64(20), "20") || SameValue(20.5, int64(20)) {
		t.Fatal("SameValue compares numbers by value and nothing else alike")
	}
	have := Extra{"a": int64(1), "b": "x", "mine": true}
	if !have.Holds(Extra{"a": 1.0, "b": "x"}) || have.Holds(Extra{"a": int64(2)}) || have.Holds(Extra{"c": nil}) {
		t.Fatal("Holds: every wanted key with its value, other keys do not count")
	}
	if have.Equal(Extra{"a": int64(1), "b": "x"}) || !have.Equal(Extra{"a": 1.0, "b": "x", "mine": true}) {
		t.Fatal("Equal: the same keys and values")
	}
	if got := have.Only([]string{"b", "z"}); len(got) != 1 || got["b"] != "x" {
		t.Fatalf("Only = %v", got)
	}
	if Extra(nil).Keys() != nil || Extra(nil).Only([]string{"a"}) != nil {
		t.Fatal("no keys: nil")
	}
}

// A saved plan gives Extra back with its whole numbers as int64, so that
// TOML gets 20 again, never 20.0.
func TestExtraJSONRoundTrip(t *testing.T) {
	b, err := json.Marshal(Entry{Name: "x", Extra: Extra{"n": int64(20), "f": 1.5, "l": []any{int64(1), "a"}, "z": nil}})
	if err != nil {
		t.Fatal(err)
	}
	var e Entry
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatal(err)
	}
	if _, ok := e.Extra["n"].(int64); !ok || e.Extra["f"] != 1.5 || !SameValue(e.Extra["l"], []any{int64(1), "a"}) {
		t.Fatalf("round trip: %#v", e.Extra)
	}
	if _, ok := e.Extra["l"].([]any)[0].(int64); !ok {
		t.Fatal("a whole number inside a list came back as a float")
	}
	if v, ok := e.Extra["z"]; !ok || v != nil {
		t.Fatal("a null value was lost")
	}
	var none Entry
	if err := json.Unmarshal([]byte(`{"Name":"x"}`), &none); err != nil || none.Extra != nil {
		t.Fatalf("no extra: %v %v", none.Extra, err)
	}
}

func TestOwnedKeyError(t *testing.T) {
	if err := CheckExtra("opencode", map[string]string{"timeout": "timeout"}, Extra{"oauth": false, "timeout": 1}); err == nil ||
		err.Error() != `extra key "timeout" is owned by chronicle for opencode: use timeout in target "opencode" instead` {
		t.Fatalf("got %v", err)
	}
	if err := CheckExtra("zed", map[string]string{"source": ""}, Extra{"source": "x"}); err == nil ||
		err.Error() != `extra key "source" is read by chronicle for zed and cannot be written through extra` {
		t.Fatalf("got %v", err)
	}
	if err := CheckExtra("zed", map[string]string{"command": "command"}, Extra{"command": "x"}); err == nil ||
		err.Error() != `extra key "command" is owned by chronicle for zed: it is written from the service's command` {
		t.Fatalf("got %v", err)
	}
	if CheckExtra("x", map[string]string{"a": "a"}, Extra{"b": 1}) != nil {
		t.Fatal("a key the provider does not model was refused")
	}
}
