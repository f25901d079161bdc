package hub

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/hub/inspect"
	"github.com/chronicle-dev/chronicle/internal/leaktest"
)

// TestLogShowsABigResultCutDown has a client call a tool that answers 8 MB
// through the hub (60 MB is TestInspectorKeepsABigResultElidedAndMasked's:
// here it would take minutes under -race on a shared machine): the client
// gets all of it, and the log (/api/log) and the live log (/api/mcp/log)
// show the call small, masked and saying what was left out.
func TestLogShowsABigResultCutDown(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	leaky := testService("leaky", "leaky", "")
	leaky.Env[leakEnv] = secret.Literal(leaktest.BenchSecret)
	leaky.Timeout = 5 * time.Minute // megabytes through two processes under -race
	writeState(t, path, []service.Service{leaky}, nil)
	r := serveHub(t, newTestHub(t, path, Options{ListGrace: testGrace}))
	c := connect(t, r.url, nil)

	var before []inspect.Record
	if err := json.Unmarshal([]byte(getJSON(t, r.url+"/api/mcp/log")), &before); err != nil {
		t.Fatal(err)
	}
	last := uint64(0)
	if len(before) > 0 {
		last = before[len(before)-1].Seq
	}
	const size = 8 << 20
	text, isErr := callText(t, c, "leaky__big", map[string]any{"mb": size >> 20})
	if isErr || len(text) < size-1<<10 || !strings.HasPrefix(text, "line 0: the key is ****** "+leaktest.ShapedToken) || strings.Contains(text, leaktest.BenchSecret) {
		t.Fatalf("the client got %d bytes (error %v), not the whole text with only the registered value replaced: %.100s", len(text), isErr, text)
	}

	for _, url := range []string{"/api/log", "/api/mcp/log?after=" + strconv.FormatUint(last, 10)} {
		body := getJSON(t, r.url+url)
		var recs []inspect.Record
		if err := json.Unmarshal([]byte(body), &recs); err != nil {
			t.Fatalf("%s: %v", url, err)
		}
		var big *inspect.Record
		for i := range recs {
			if recs[i].Direction == inspect.DirSend && recs[i].Elided > size-inspect.StringLimit {
				big = &recs[i]
			}
		}
		if big == nil || len(body) > 4*inspect.RecordLimit || !strings.Contains(string(big.Message), " bytes left out … ") ||
			!strings.Contains(string(big.Message), "line 0: the key is ****** ghp_…******") {
			t.Fatalf("%s does not show the result cut down (%d bytes): %.600s", url, len(body), body)
		}
		leaktest.AssertMasked(t, body)
	}
}
