package provider

import (
	"slices"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
)

func TestOAuthFields(t *testing.T) {
	full := OAuthSupport{Discovers: true, Key: "oauth", ClientID: "clientId", CallbackPort: "callbackPort", Scopes: "scopes", ScopesJoined: true}
	x, missing := full.Fields(&service.OAuth{ClientID: "a", CallbackPort: 8765, Scopes: []string{"r", "w"}})
	want := Extra{"oauth": map[string]any{"clientId": "a", "callbackPort": float64(8765), "scopes": "r w"}}
	if missing != nil || !x.Equal(want) {
		t.Errorf("fields %v missing %v", x, missing)
	}
	list := OAuthSupport{Discovers: true, Key: "auth", ClientID: "CLIENT_ID", Scopes: "scopes"}
	if x, _ := list.Fields(&service.OAuth{ClientID: "a", Scopes: []string{"r"}}); !x.Equal(Extra{"auth": map[string]any{"CLIENT_ID": "a", "scopes": []any{"r"}}}) {
		t.Errorf("list scopes: %v", x)
	}
	ref := secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: "S"})
	if x, missing := full.Fields(&service.OAuth{ClientID: "a", ClientSecret: ref}); x != nil || !slices.Equal(missing, []string{"client_secret"}) {
		t.Errorf("a client secret: %v %v", x, missing)
	}
	if x, missing := full.Fields(&service.OAuth{}); x != nil || missing != nil {
		t.Errorf("a bare oauth {}: %v %v", x, missing)
	}
	if x, missing := full.Fields(nil); x != nil || missing != nil {
		t.Errorf("no oauth: %v %v", x, missing)
	}
	// chronicle's own port (no client id) and client document are not the tool's.
	if x, missing := full.Fields(&service.OAuth{CallbackPort: 9000, ClientMetadataURL: "https://c.example/client.json"}); x != nil || missing != nil {
		t.Errorf("%v %v", x, missing)
	}
	if _, missing := (OAuthSupport{Discovers: true}).Fields(&service.OAuth{ClientID: "a", Scopes: []string{"s"}}); !slices.Equal(missing, []string{"client_id", "scopes"}) {
		t.Errorf("no fields: missing %v", missing)
	}
	if _, missing := (OAuthSupport{}).Fields(&service.OAuth{}); !slices.Equal(missing, []string{"login"}) {
		t.Errorf("no login: missing %v", missing)
	}
}
