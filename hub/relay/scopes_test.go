package relay

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/hub/catalog"
	"github.com/chronicle-dev/chronicle/hub/listing"
	"github.com/chronicle-dev/chronicle/hub/session"
)

// A pinned request keeps where it came from for the whole call, and its
// view while the settings and the catalogue are the ones it was found in;
// after a reload it sees the new settings' view, as an unpinned request.
func TestPin(t *testing.T) {
	var cur atomic.Pointer[Settings]
	cur.Store(&Settings{State: &state.State{}, Exposure: catalog.Exposure{Gen: 1}})
	s := &Scopes{Root: "/work/a", Clients: session.NewRegistry(), Settings: cur.Load, Lister: listing.New(listing.Options{})}
	ctx := session.WithEndpoint(context.Background(), session.Endpoint{Path: "/mcp/service/github"})

	pinned, cat, v := s.Pin(ctx)
	if w := s.Where(pinned); w.Service != "github" || w.Root != "/work/a" {
		t.Fatalf("Where(pinned) = %+v, want the github service endpoint in /work/a", w)
	}
	if c, pv := s.View(pinned); c != cat || pv != v {
		t.Error("View(pinned) is not the view Pin found")
	}
	if _, uv := s.View(ctx); uv != v {
		t.Error("the unpinned View differs from the pinned one under the same settings")
	}

	s.Root = "/work/b" // the stdio client's folder, changed after the pin
	if w := s.Where(pinned); w.Root != "/work/a" {
		t.Errorf("Where(pinned).Root = %q after the folder changed, want the pinned /work/a", w.Root)
	}
	if w := s.Where(ctx); w.Root != "/work/b" {
		t.Errorf("Where(unpinned).Root = %q, want /work/b", w.Root)
	}

	cur.Store(&Settings{State: &state.State{}, Exposure: catalog.Exposure{Gen: 2}}) // a reload
	_, after := s.View(pinned)
	if after == v {
		t.Fatal("View(pinned) kept the view of the settings before the reload")
	}
	if after.Reach.Exposure.Gen != 2 || after.Reach.Service != "github" {
		t.Errorf("after the reload, View(pinned) is of generation %d for service %q, want 2 and the pinned github",
			after.Reach.Exposure.Gen, after.Reach.Service)
	}
}
