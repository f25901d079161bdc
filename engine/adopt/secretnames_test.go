package adopt

import (
	"errors"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/scan"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
)

// Values found under one derived variable name: equal ones share it,
// different ones get names of their own, and the one whose tool can read
// no other name keeps it.
func TestDifferentValuesGetNamesOfTheirOwn(t *testing.T) {
	withToken := func(tool, value string, extra ...string) scan.Service {
		env := map[string]secret.Value{"API_TOKEN": secret.Literal(value)}
		args := []secret.Value{secret.Literal("srv")}
		for _, a := range extra {
			args = append(args, secret.Literal(a))
		}
		return entry(tool, "user", "/h/"+tool+".json", "api", provider.Entry{Definition: service.Definition{Command: "api", Args: args, Env: env}})
	}
	r := scan.Result{Services: []scan.Service{
		withToken("cline", "first-value-aaaa"),
		withToken("cursor", "first-value-aaaa"), // the same value: the same name
		withToken("goose", "second-value-bbbb"),
		withToken("amp", "third-value-cccc", "--other"),
	}}
	// goose reads a variable only under the name of its key.
	render := func(tool string, e provider.Entry) ([]byte, error) {
		if ref, ok := e.Env["API_TOKEN"].OnlyRef(); ok && tool == "goose" && ref.Name != "API_TOKEN" {
			return nil, errors.New("goose reads API_TOKEN only")
		}
		return nil, nil
	}
	text := string(ProposeWith(r, nil, t.TempDir(), "/h", render).HCL(""))
	for _, want := range []string{
		`export API_TOKEN (its current value is in ~/goose.json`,
		`export API_TOKEN_2 (its current value is in ~/cline.json at mcpServers.api.env.API_TOKEN; another tool holds a different value under API_TOKEN`,
		`export API_TOKEN_3 (its current value is in ~/amp.json`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("adopted HCL lacks %s:\n%s", want, text)
		}
	}
	if strings.Contains(text, "value-") || strings.Contains(text, "API_TOKEN_4") {
		t.Errorf("a value in the HCL, or a name for a value seen twice:\n%s", text)
	}
	// Without the providers' word, the first value found keeps the name.
	text = string(Propose(r, nil, t.TempDir(), "/h").HCL(""))
	if !strings.Contains(text, `export API_TOKEN (its current value is in ~/cline.json`) || !strings.Contains(text, `export API_TOKEN_2 (its current value is in ~/goose.json`) {
		t.Errorf("without render:\n%s", text)
	}
}

func TestRenameRefKeepsEverythingElse(t *testing.T) {
	ref := func(n string) secret.Value { return secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: n}) }
	e := provider.Entry{Definition: service.Definition{
		Args:    []secret.Value{secret.Literal("--key"), ref("K")},
		Env:     map[string]secret.Value{"A": ref("K"), "B": ref("OTHER")},
		Headers: map[string]secret.Value{"Authorization": secret.Concat(secret.Literal("Bearer "), ref("K"))},
		URL:     secret.Literal("https://x.example.com"),
	}}
	got := renameRef(e, "K", "K_2")
	named := func(v secret.Value) string {
		r, _ := v.OnlyRef()
		return r.Name
	}
	if lit, _ := got.Args[0].Literal(); lit != "--key" || named(got.Args[1]) != "K_2" || named(got.Env["A"]) != "K_2" || named(got.Env["B"]) != "OTHER" ||
		!strings.Contains(got.Headers["Authorization"].HCL(), `Bearer ${secret("env:K_2")}`) || got.URL.HCL() != e.URL.HCL() {
		t.Fatalf("renameRef: %+v", got.Definition)
	}
}
