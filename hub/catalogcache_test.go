package hub

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/catalog"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/internal/waitfor"
)

// TestCatalogCache: the hub writes every service's unscoped listing with
// token counts, masked, merged by service: a service that fails keeps its
// last listing, one no longer declared is dropped.
func TestCatalogCache(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	cache := filepath.Join(dir, catalog.FileName)
	project := filepath.Join(dir, "work", "api")
	leaky := service.Service{Name: "leaky", Definition: testService("leaky", "leaky", "").Definition, Enabled: true, Timeout: testService("x", "x", "").Timeout}
	leaky.Env = map[string]secret.Value{upstreamEnv: secret.Literal("leaky"), leakEnv: secretEnv("LEAK_SECRET")}
	t.Setenv("LEAK_SECRET", "s3cr3t-value-from-env")
	writeState(t, path, []service.Service{testService("alpha", "alpha", ""), testService("beta", "beta", project), leaky},
		map[string]state.Policy{"alpha": {DisabledTools: []string{"delete_*"}}})

	h, _ := cachingHub(t, path, cache, func(f *catalog.File) bool {
		return len(f.Services) == 3 && len(f.Services["alpha"].Tools) > 0 && len(f.Services["beta"].Tools) > 0 && len(f.Services["leaky"].Tools) > 0
	})
	h.Close()
	// Close writes a catalogue still pending (a second listing of the same
	// tools, with a later time): the cache as the first hub left it is what
	// the second must keep for beta.
	f, err := catalog.Load(cache)
	if err != nil || f == nil {
		t.Fatalf("the cache after the first hub closed: %v", err)
	}
	if f.MetaTokens == 0 || f.MetaTokens > 1000 {
		t.Errorf("meta-tools cost %d tokens", f.MetaTokens)
	}
	names := map[string]int{}
	for _, tl := range f.Services["alpha"].Tools {
		names[tl.Name] = tl.Tokens
		if tl.Tokens == 0 || !strings.HasPrefix(tl.Exposed, "alpha__") {
			t.Errorf("alpha tool %+v", tl)
		}
	}
	if _, ok := names["delete_everything"]; !ok || len(names) != 4 {
		t.Errorf("the cache holds the unscoped, unfiltered listing: %v", names)
	}
	raw, _ := os.ReadFile(cache)
	if strings.Contains(string(raw), "s3cr3t-value-from-env") {
		t.Error("the cache holds a secret the hub resolved")
	}
	if info, _ := os.Stat(cache); info.Mode().Perm() != 0o600 {
		t.Errorf("cache mode %v", info.Mode().Perm())
	}

	// beta now fails to start and leaky is no longer declared: beta keeps
	// its last listing, leaky goes.
	broken := testService("beta", "beta", project)
	broken.Command = filepath.Join(dir, "no-such-server")
	writeState(t, path, []service.Service{testService("alpha", "alpha", ""), broken}, nil)
	h, g := cachingHub(t, path, cache, func(g *catalog.File) bool {
		_, gone := g.Services["leaky"]
		return !gone
	})
	defer h.Close()
	b, _ := json.Marshal(g.Services["beta"])
	want, _ := json.Marshal(f.Services["beta"])
	if string(b) != string(want) {
		t.Errorf("the failing service's listing changed:\n%s\nwas\n%s", b, want)
	}
	if len(g.Services["alpha"].Tools) != 4 {
		t.Errorf("alpha: %+v", g.Services["alpha"])
	}
}

// cachingHub starts a hub that keeps the catalogue cache, asks for its
// catalogue, and waits for a write after which the cache satisfies done.
func cachingHub(t *testing.T, path, cache string, done func(*catalog.File) bool) (*Hub, *catalog.File) {
	t.Helper()
	h := newTestHub(t, path, Options{CatalogPath: cache, ListGrace: testGrace})
	h.lister.CacheWritten = make(chan struct{}, 16)
	h.lister.Catalog(context.Background())
	for {
		waitfor.Receive(t, h.lister.CacheWritten, "a write of the catalogue cache that has what the test waits for")
		f, err := catalog.Load(cache)
		if err != nil {
			t.Fatal(err)
		}
		if f != nil && done(f) {
			return h, f
		}
	}
}
