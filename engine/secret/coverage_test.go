package secret

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// What a Value says of itself: empty or not, its references in order, the
// one reference it is, the literal text it is; printed, it shows
// references and never what they point to.
func TestValueAccessors(t *testing.T) {
	tok, key := Ref{KindEnv, "TOKEN"}, Ref{KindFile, "~/.key"}
	for _, tc := range []struct {
		name    string
		v       Value
		zero    bool
		refs    []Ref
		only    bool
		literal string
		isLit   bool
		text    string
	}{
		{"zero", Value{}, true, nil, false, "", true, ""},
		{"empty literal", Literal(""), true, nil, false, "", true, ""},
		{"literal", Literal("debug"), false, nil, false, "debug", true, "debug"},
		{"one reference", FromRef(tok), false, []Ref{tok}, true, "", false, `${secret("env:TOKEN")}`},
		{"text and references", Concat(Literal("Bearer "), FromRef(tok), Literal(""), FromRef(key)), false, []Ref{tok, key}, false, "", false,
			`Bearer ${secret("env:TOKEN")}${secret("file:~/.key")}`},
		{"literal text joined", Concat(Literal("a"), Literal("b")), false, nil, false, "ab", true, "ab"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.v.IsZero() != tc.zero {
				t.Errorf("IsZero = %v", !tc.zero)
			}
			if tc.v.HasRefs() != (len(tc.refs) > 0) || !slices.Equal(tc.v.Refs(), tc.refs) {
				t.Errorf("HasRefs %v, Refs %v; want %v", tc.v.HasRefs(), tc.v.Refs(), tc.refs)
			}
			if r, ok := tc.v.OnlyRef(); ok != tc.only || (ok && r != tc.refs[0]) {
				t.Errorf("OnlyRef = %v, %v", r, ok)
			}
			if s, ok := tc.v.Literal(); ok != tc.isLit || s != tc.literal {
				t.Errorf("Literal = %q, %v", s, ok)
			}
			if got := tc.v.String(); got != tc.text {
				t.Errorf("String = %q, want %q", got, tc.text)
			}
		})
	}
}

// Values are equal part by part; references compare by what they name.
func TestValueEqual(t *testing.T) {
	a := Concat(Literal("Bearer "), FromRef(Ref{KindEnv, "A"}))
	for _, tc := range []struct {
		other Value
		want  bool
	}{
		{Concat(Literal("Bearer "), FromRef(Ref{KindEnv, "A"})), true},
		{Concat(Literal("Bearer "), FromRef(Ref{KindEnv, "B"})), false},
		{Concat(Literal("Token "), FromRef(Ref{KindEnv, "A"})), false},
		{Literal("Bearer "), false},
		{Concat(FromRef(Ref{KindEnv, "A"}), FromRef(Ref{KindEnv, "A"})), false},
		{Literal(`Bearer ${secret("env:A")}`), false},
	} {
		if got := a.Equal(tc.other); got != tc.want {
			t.Errorf("%s equal to %s: %v", a, tc.other, got)
		}
	}
}

// A plan or state file with a value that is not a string, or a template
// that does not parse, does not decode.
func TestValueUnmarshalRefusesWhatItDidNotWrite(t *testing.T) {
	for _, bad := range []string{`42`, `"${secret(\"vault:x\")}"`} {
		var v Value
		if err := json.Unmarshal([]byte(bad), &v); err == nil {
			t.Errorf("%s decoded as %s", bad, v)
		}
	}
}

// A missing env file holds nothing; one that does not parse, or a folder
// in its place, is an error naming it.
func TestReadEnvFileErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	if vals, err := ReadEnvFile(filepath.Join(dir, "missing")); err != nil || len(vals) != 0 {
		t.Fatalf("a missing file: %v, %v", vals, err)
	}
	bad := filepath.Join(dir, "env")
	if err := os.WriteFile(bad, []byte("TOKEN='unterminated\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if vals, err := ReadEnvFile(bad); err == nil || !strings.HasPrefix(err.Error(), bad+": ") {
		t.Fatalf("a file that does not parse: %v, %v", vals, err)
	}
	folder := filepath.Join(dir, "folder")
	if err := os.Mkdir(folder, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadEnvFile(folder); err == nil || !strings.HasPrefix(err.Error(), folder+": ") {
		t.Fatalf("a folder in the file's place: %v", err)
	}
}
