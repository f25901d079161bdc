package codex

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
)

// fixture reads a codex fixture from the repository's testdata.
func fixture(t testing.TB, scope string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "fixtures", "codex", scope, ".codex", "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// home lays out a temporary home whose ~/.codex/config.toml holds data (no
// file when data is nil) and returns its env and user location.
func home(t *testing.T, data []byte) (provider.Env, provider.Location) {
	t.Helper()
	dir := t.TempDir()
	env := provider.Env{Home: dir, Getenv: func(string) (string, bool) { return "", false }}
	loc := New().Locations(env)[0]
	if data != nil {
		writeFile(t, loc.File, data)
	}
	return env, loc
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func lit(s string) secret.Value { return secret.Literal(s) }

func ref(name string) secret.Value {
	return secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: name})
}

func bearer(name string) secret.Value { return secret.Concat(lit("Bearer "), ref(name)) }

// entryDiff compares entries by meaning: secrets by reference, Canonical
// left out (checked on its own).
func entryDiff(want, got any) string {
	return cmp.Diff(want, got,
		cmp.Comparer(func(a, b secret.Value) bool { return a.Equal(b) }),
		cmpopts.IgnoreFields(provider.Entry{}, "Canonical"),
		cmpopts.EquateEmpty())
}
