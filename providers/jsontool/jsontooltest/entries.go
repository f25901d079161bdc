package jsontooltest

import (
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	pt "github.com/chronicle-dev/chronicle/providers/providertest"
)

// Want is what a test expects of one entry read from a fixture. Values are
// written as secret.Value.HCL text: `Bearer ${secret("env:T")}`.
type Want struct {
	Name, Transport, Command string
	Args                     []string
	Env, Headers             map[string]string
	URL                      string
	Enabled                  bool
	EnabledTools             []string
	DisabledTools            []string
	Cwd                      string
}

// Check compares entries with want, in order.
func Check(t testing.TB, entries []provider.Entry, want []Want) {
	t.Helper()
	if len(entries) != len(want) {
		t.Fatalf("got %d entries %v, want %d", len(entries), names(entries), len(want))
	}
	for i, w := range want {
		e := entries[i]
		got := Want{Name: e.Name, Transport: e.Transport, Command: e.Command, Args: hcl(e.Args),
			Env: hclMap(e.Env), Headers: hclMap(e.Headers), URL: e.URL.HCL(), Enabled: e.Enabled,
			EnabledTools: e.EnabledTools, DisabledTools: e.DisabledTools, Cwd: e.Cwd}
		if g, w := format(got), format(w); g != w {
			t.Errorf("entry %d:\n got  %s\n want %s", i, g, w)
		}
		if len(e.Canonical) == 0 || strings.ContainsAny(string(e.Canonical), "\n") {
			t.Errorf("entry %s: Canonical is not compact JSON: %q", e.Name, e.Canonical)
		}
	}
}

func names(entries []provider.Entry) []string {
	var out []string
	for _, e := range entries {
		out = append(out, e.Name)
	}
	return out
}

func hcl(vs []secret.Value) []string {
	var out []string
	for _, v := range vs {
		out = append(out, v.HCL())
	}
	return out
}

func hclMap(m map[string]secret.Value) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := map[string]string{}
	for k, v := range m {
		out[k] = v.HCL()
	}
	return out
}

// Env returns a reference to an environment variable.
func Env(name string) secret.Value {
	return secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: name})
}

// ReadCheck reads p's location of scope whose file ends with suffix,
// compares the entries with want and returns them.
func ReadCheck(t testing.TB, p provider.Provider, env provider.Env, scope, suffix string, want []Want) []provider.Entry {
	t.Helper()
	entries, err := pt.Read(p, Location(t, p, env, scope, suffix))
	if err != nil {
		t.Fatal(err)
	}
	Check(t, entries, want)
	return entries
}
