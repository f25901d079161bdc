package main

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/state"
)

// TestToolsCountsAsTheHub: chronicle tools shows a tool the hub does not
// offer (/api/tools "hidden", as hubs before decision 0210 answered for one
// that requires task augmentation) with the reason, and does not count it,
// as /api/status does not (issue 21, item 18; the hub side is hub's
// TestHiddenToolCounts).
func TestToolsCountsAsTheHub(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/tools" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`[
  {"name":"tasks__echo","service":"tasks","tool":"echo","tokens":40},
  {"name":"tasks__long_job","service":"tasks","tool":"long_job","hidden":"requires task augmentation, which the hub does not pass through yet","tokens":30},
  {"name":"tasks__wipe","service":"tasks","tool":"wipe","blocked":true,"tokens":20}
]`))
	}))
	defer srv.Close()
	home := gitHome(t)
	st, err := state.Load(filepath.Join(home, ".chronicle", "state.json"))
	if err != nil {
		t.Fatal(err)
	}
	st.Hub = &state.Hub{Listen: strings.TrimPrefix(srv.URL, "http://")}
	if err := st.Save(filepath.Join(home, ".chronicle", "state.json")); err != nil {
		t.Fatal(err)
	}
	out := mustRun(t, 0, "tools")
	for _, want := range []string{
		"tasks — 1 tool ≈ 40 tokens",
		"tasks__long_job      30  (not offered: requires task augmentation, which the hub does not pass through yet)",
		"tasks__wipe          20  (disabled by policy, not offered)",
		"In all: 1 tool ≈ 40 tokens.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("chronicle tools lacks %q:\n%s", want, out)
		}
	}
}
