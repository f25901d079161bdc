package service

import (
	"testing"

	"github.com/chronicle-dev/chronicle/engine/secret"
)

func TestOAuthEqual(t *testing.T) {
	ref := secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: "S"})
	base := OAuth{ClientID: "c", ClientSecret: ref, Scopes: []string{"a"}, CallbackPort: 1, ClientMetadataURL: "https://m/c.json"}
	same := base
	if !base.Equal(&same) || !(*OAuth)(nil).Equal(nil) || base.Equal(nil) || (*OAuth)(nil).Equal(&base) {
		t.Fatal("Equal is wrong on equal or nil settings")
	}
	for _, change := range []func(*OAuth){
		func(o *OAuth) { o.ClientID = "d" },
		func(o *OAuth) { o.ClientSecret = secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: "T"}) },
		func(o *OAuth) { o.Scopes = []string{"b"} },
		func(o *OAuth) { o.CallbackPort = 2 },
		func(o *OAuth) { o.ClientMetadataURL = "" },
	} {
		other := base
		change(&other)
		if base.Equal(&other) {
			t.Fatalf("Equal misses a difference: %+v", other)
		}
	}
	a := Service{Name: "x", OAuth: &base}
	b := Service{Name: "x"}
	if a.Equal(b) || a.SameUpstream(b) {
		t.Fatal("a service's oauth block is not part of its identity")
	}
}
