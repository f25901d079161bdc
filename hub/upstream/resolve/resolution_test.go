package resolve

import (
	"errors"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
)

// TestResolutionRegistersSecrets checks that every value resolved for an
// upstream reaches the shared Masker: references, URL credentials and
// literal values under secret-looking names.
func TestResolutionRegistersSecrets(t *testing.T) {
	m := mask.NewMasker()
	rs := &Resolution{Resolver: resolverFor(map[string]string{"A": "alpha-secret", "Q": "query-secret-1"}), Masker: m}
	v := secret.Concat(secret.Literal("Bearer "), secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: "A"}))
	if got, err := rs.Value(v); err != nil || got != "Bearer alpha-secret" {
		t.Fatalf("resolve: %q %v", got, err)
	}
	u := secret.Concat(secret.Literal("https://me:pass-in-url@example.test/mcp?api_key="), secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: "Q"}), secret.Literal("&plain=visible"))
	if _, err := rs.URL(u); err != nil {
		t.Fatal(err)
	}
	rs.LiteralSecrets(service.Definition{Env: map[string]secret.Value{"GITHUB_TOKEN": secret.Literal("ghp-literal-value"), "LOG_LEVEL": secret.Literal("debug")}})
	got := m.Literal("alpha-secret pass-in-url query-secret-1 ghp-literal-value debug visible")
	if want := "****** ****** ****** ****** debug visible"; got != want {
		t.Errorf("Literal = %q, want %q", got, want)
	}
	base := errors.New("bad token alpha-secret")
	if err := m.Err(base); err.Error() != "bad token ******" || !errors.Is(err, base) {
		t.Errorf("masked error: %v", err)
	}
	if m.Err(nil) != nil {
		t.Errorf("maskErr(nil) is not nil")
	}
}

func resolverFor(vars map[string]string) secret.Resolver {
	return secret.Resolver{Env: func(name string) (string, bool) {
		v, ok := vars[name]
		return v, ok
	}}
}
