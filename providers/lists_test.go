package providers

import (
	"slices"
	"strings"
	"testing"
)

// The rules of a list are read and edited keeping the user's rules and
// comments; a list of another type is an error naming the file and key
// path.
func TestListsReadAndEdit(t *testing.T) {
	file, keys := "/h/.config/devin/config.json", []string{"permissions", "deny"}
	src := []byte("{\n  // mine\n  \"permissions\": { \"deny\": [\"Exec(sudo)\", 1] }\n}\n")
	var l Lists
	rules, err := l.Strings(file, src, keys)
	if err != nil || !slices.Equal(rules, []string{"Exec(sudo)"}) {
		t.Fatalf("rules %v, %v", rules, err)
	}
	if rules, err := l.Strings(file, nil, keys); err != nil || rules != nil {
		t.Fatalf("a missing file: %v, %v", rules, err)
	}
	added, err := l.Edit(file, src, keys, "mcp__db__drop", false)
	if err != nil || !strings.Contains(string(added), "// mine") || !strings.Contains(string(added), `"mcp__db__drop"`) {
		t.Fatalf("added:\n%s\n%v", added, err)
	}
	back, err := l.Edit(file, added, keys, "mcp__db__drop", true)
	if err != nil || string(back) != string(src) {
		t.Fatalf("removed:\n%s\n%v", back, err)
	}
	for _, bad := range []string{`{"permissions": []}`, `{"permissions": {"deny": "Exec(sudo)"}}`, `{`} {
		if _, err := l.Strings(file, []byte(bad), keys); err == nil || !strings.Contains(err.Error(), file) {
			t.Errorf("%s: want an error naming the file, got %v", bad, err)
		}
	}
	if _, err := l.Edit(file, []byte(`{`), keys, "x", false); err == nil {
		t.Error("an edit of a file that does not parse is an error")
	}
}
