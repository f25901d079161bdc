package secret

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseRef(t *testing.T) {
	for _, ok := range []string{"env:GITHUB_TOKEN", "file:~/.token", "file:/etc/x"} {
		if _, err := ParseRef(ok); err != nil {
			t.Errorf("ParseRef(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"GITHUB_TOKEN", "vault:x", "env:", "env:1X", "env:A-B", "file:"} {
		if _, err := ParseRef(bad); err == nil {
			t.Errorf("ParseRef(%q) accepted", bad)
		}
	}
}

func TestValueRoundTrip(t *testing.T) {
	v := Concat(Literal("Bearer ${not a ref} "), FromRef(Ref{KindEnv, "T"}))
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `"Bearer $${not a ref} ${secret(\"env:T\")}"` {
		t.Fatalf("JSON = %s", b)
	}
	var back Value
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !back.Equal(v) {
		t.Fatalf("round trip gave %s, want %s", back, v)
	}
}

func TestResolve(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "env"), []byte("FROM_FILE=file-value\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "tok"), []byte("tok-value\n"), 0o600)
	r := Resolver{
		Env:     func(k string) (string, bool) { return "env-value", k == "FROM_ENV" },
		EnvFile: filepath.Join(dir, "env"),
		Home:    dir,
	}
	v := Concat(FromRef(Ref{KindEnv, "FROM_ENV"}), Literal(" "), FromRef(Ref{KindEnv, "FROM_FILE"}), Literal(" "), FromRef(Ref{KindFile, "~/tok"}))
	got, err := r.Resolve(v)
	if err != nil || got != "env-value file-value tok-value" {
		t.Fatalf("Resolve = %q, %v", got, err)
	}
	_, err = r.Resolve(FromRef(Ref{KindEnv, "MISSING"}))
	if err == nil || !strings.Contains(err.Error(), "MISSING is not set") {
		t.Fatalf("missing variable error = %v", err)
	}
}

func FuzzParseTemplate(f *testing.F) {
	for _, s := range []string{`Bearer ${secret("env:T")}`, `$${x}`, `${secret("file:~/a")}x`, `%{ if true }x%{ endif }`, `${`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseTemplate(s)
		if err != nil {
			return
		}
		back, err := ParseTemplate(v.HCL())
		if err != nil || !back.Equal(v) {
			t.Fatalf("%q parsed to %s, which does not parse back the same (%v)", s, v.HCL(), err)
		}
	})
}

func TestIsSet(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "env")
	if err := os.WriteFile(file, []byte("IN_FILE=v\nEMPTY_IN_FILE=\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := func(n string) (string, bool) {
		v, ok := map[string]string{"IN_ENV": "v", "EMPTY": ""}[n]
		return v, ok
	}
	r := Resolver{Env: env, EnvFile: file}
	for name, want := range map[string]bool{"IN_ENV": true, "IN_FILE": true, "EMPTY": false, "EMPTY_IN_FILE": false, "NOWHERE": false} {
		if got := r.IsSet(name); got != want {
			t.Errorf("IsSet(%s) = %v, want %v", name, got, want)
		}
	}
	if (Resolver{EnvFile: filepath.Join(dir, "missing")}).IsSet("IN_FILE") || (Resolver{}).IsSet("IN_ENV") {
		t.Error("a variable set nowhere the resolver looks")
	}
}
