package plan

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
)

func TestUnsetVariables(t *testing.T) {
	ref := func(n string) secret.Value { return secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: n}) }
	d := service.Definition{
		Args:    []secret.Value{secret.Literal("--token"), ref("B_TOKEN")},
		Env:     map[string]secret.Value{"A": ref("A_TOKEN"), "F": secret.FromRef(secret.Ref{Kind: secret.KindFile, Name: "~/f"})},
		Headers: map[string]secret.Value{"Authorization": secret.Concat(secret.Literal("Bearer "), ref("A_TOKEN"))},
		URL:     secret.Concat(secret.Literal("https://x.example.com/?k="), ref("SET_TOKEN")),
	}
	uses := append(VariableUses(d, "api", "cursor"), VariableUses(d, "api", "claude")...)
	uses = append(uses, VariableUses(service.Definition{Env: map[string]secret.Value{"X": ref("A_TOKEN")}}, "other", "codex")...)
	if got := VariableUses(d, "api", "cursor"); len(got) != 3 || got[0].Variable != "A_TOKEN" || got[1].Variable != "B_TOKEN" || got[2].Variable != "SET_TOKEN" {
		t.Fatalf("VariableUses = %+v", got)
	}
	home := t.TempDir()
	envFile := filepath.Join(home, ".chronicle", "env")
	os.MkdirAll(filepath.Dir(envFile), 0o700)
	if err := os.WriteFile(envFile, []byte("B_TOKEN=from-the-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := func(n string) (string, bool) {
		v, ok := map[string]string{"SET_TOKEN": "x", "A_TOKEN": ""}[n]
		return v, ok
	}
	got := UnsetVariables(uses, secret.Resolver{Env: env, EnvFile: envFile}, home)
	want := []string{"A_TOKEN is not set (neither in the environment nor in ~/.chronicle/env); api in claude and cursor; other in codex read it"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("UnsetVariables =\n%q\nwant\n%q", got, want)
	}
	got = UnsetVariables(uses[:1], secret.Resolver{Env: env}, home)
	if want := []string{"A_TOKEN is not set (not in the environment); api in cursor reads it"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("without an env file: %q", got)
	}
}
