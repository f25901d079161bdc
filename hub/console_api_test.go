package hub

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/lock"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/skills"
	"github.com/chronicle-dev/chronicle/engine/snapshot"
	"github.com/chronicle-dev/chronicle/hub/console"
	"github.com/chronicle-dev/chronicle/hub/inspect"
)

func TestConsoleCallIsLoggedAndPushed(t *testing.T) {
	c := startConsoleHub(t, "")
	var recs []inspect.Record
	_, body, _ := c.do(t, "GET", "/api/mcp/log", "", "")
	if err := json.Unmarshal([]byte(body), &recs); err != nil {
		t.Fatal(err)
	}
	last := uint64(0)
	if len(recs) > 0 {
		last = recs[len(recs)-1].Seq
	}
	// A long poll waiting for what comes after the last record.
	polled := make(chan []inspect.Record, 1)
	go func() {
		var got []inspect.Record
		_, body, _ := c.do(t, "GET", "/api/mcp/log?after="+strconv.FormatUint(last, 10), "", "")
		json.Unmarshal([]byte(body), &got)
		polled <- got
	}()
	code, body, _ := c.do(t, "POST", "/api/mcp/call", "application/json", `{"name":"alpha__echo","arguments":{"text":"from the console"}}`)
	if code != 200 || !strings.Contains(body, "alpha:from the console") {
		t.Fatalf("/api/mcp/call: %d %s", code, body)
	}
	var got []inspect.Record
	select {
	case got = <-polled:
	case <-time.After(console.LivePollLimit + 5*time.Second):
		t.Fatal("the long poll did not answer")
	}
	if len(got) == 0 || got[0].Seq != last+1 {
		t.Fatalf("the long poll answered %+v after seq %d", got, last)
	}
	// The poll answered on the first new record; the rest is in the log.
	_, body, _ = c.do(t, "GET", "/api/mcp/log?after="+strconv.FormatUint(last, 10), "", "")
	if !strings.Contains(body, `"method": "tools/call"`) || !strings.Contains(body, `"name": "alpha__echo"`) ||
		!strings.Contains(body, `"text": "from the console"`) || !strings.Contains(body, `"text": "alpha:from the console"`) {
		t.Fatalf("the call is not in the log as recv and send: %s", body)
	}
	// Unknown tools, unknown profiles and roots out of scope are refused.
	if code, _, _ := c.do(t, "POST", "/api/mcp/call", "application/json", `{"name":"alpha__nope"}`); code != 404 {
		t.Errorf("unknown tool: %d", code)
	}
	if code, _, _ := c.do(t, "POST", "/api/mcp/call", "application/json", `{"name":"alpha__echo","profile":"none"}`); code != 404 {
		t.Errorf("unknown profile: %d", code)
	}
	if code, _, _ := c.do(t, "POST", "/api/mcp/call", "application/json", `{"name":"alpha__echo","root":"relative"}`); code != 400 {
		t.Errorf("relative root: %d", code)
	}
	if code, _, _ := c.do(t, "GET", "/api/mcp/log?after=x", "", ""); code != 400 {
		t.Errorf("after=x: %d", code)
	}
}

func TestConsoleRestart(t *testing.T) {
	c := startConsoleHub(t, "")
	if code, body, _ := c.do(t, "POST", "/api/mcp/call", "application/json", `{"name":"alpha__echo","arguments":{"text":"a"}}`); code != 200 {
		t.Fatalf("call: %d %s", code, body)
	}
	before := c.hub.pool.Shared.Get("alpha").Status()
	code, body, _ := c.do(t, "POST", "/api/mcp/services/alpha/restart", "application/json", `{}`)
	var st console.ServiceStatus
	json.Unmarshal([]byte(body), &st)
	if code != 200 || st.State != "ready" || st.PID == 0 || st.PID == before.PID || st.Restarts != 1 {
		t.Fatalf("restart: %d %s (pid before %d)", code, body, before.PID)
	}
	if code, body, _ := c.do(t, "POST", "/api/mcp/call", "application/json", `{"name":"alpha__echo","arguments":{"text":"b"}}`); code != 200 || !strings.Contains(body, "alpha:b") {
		t.Fatalf("call after the restart: %d %s", code, body)
	}
	if code, _, _ := c.do(t, "POST", "/api/mcp/services/nope/restart", "application/json", `{}`); code != 404 {
		t.Errorf("unknown service: %d", code)
	}
	if _, body, _ := c.do(t, "GET", "/api/mcp/log", "", ""); !strings.Contains(body, "restart of alpha requested") {
		t.Errorf("the restart is not noted in the log")
	}
}

func TestConsoleSkills(t *testing.T) {
	c := startConsoleHub(t, "")
	central := filepath.Join(c.m.Store, "review")
	var all []struct {
		Name   string
		Tags   []string
		Rating int
		Links  map[string]string
	}
	_, body, _ := c.do(t, "GET", "/api/skills", "", "")
	if err := json.Unmarshal([]byte(body), &all); err != nil || len(all) != 1 || all[0].Name != "review" || all[0].Links["claude"] != "linked" || all[0].Links["cursor"] != "none" {
		t.Fatalf("/api/skills: %v %s", err, body)
	}
	for _, r := range []struct{ method, path, body string }{
		{"GET", "/api/skills/nope", ""},
		{"GET", "/api/skills/nope/snapshots", ""},
		{"POST", "/api/skills/nope/restore", `{"id":"1"}`},
		{"PUT", "/api/skills/nope/meta", `{"tags":[],"rating":1}`},
		{"GET", "/api/skills/..%2f..%2fetc/snapshots", ""},
	} {
		if code, _, _ := c.do(t, r.method, r.path, "application/json", r.body); code != 404 {
			t.Errorf("%s %s: %d, want 404", r.method, r.path, code)
		}
	}

	// Metadata: replaced, validated, and never inside the skill.
	before := tree(t, central)
	code, body, _ := c.do(t, "PUT", "/api/skills/review/meta", "application/json", `{"tags":["go","code-review"],"rating":4}`)
	if code != 200 || !strings.Contains(body, `"rating": 4`) || !strings.Contains(body, `"code-review"`) {
		t.Fatalf("PUT meta: %d %s", code, body)
	}
	saved, _ := os.ReadFile(filepath.Join(c.m.Chronicle, "skills-meta.json"))
	for _, bad := range []string{`{"tags":[],"rating":6}`, `{"tags":[],"rating":-1}`, `{"tags":["Not OK"],"rating":1}`, `{"tags":[]}`, `not json`} {
		if code, _, _ := c.do(t, "PUT", "/api/skills/review/meta", "application/json", bad); code != 400 {
			t.Errorf("PUT meta %s: %d, want 400", bad, code)
		}
	}
	if now, _ := os.ReadFile(filepath.Join(c.m.Chronicle, "skills-meta.json")); string(now) != string(saved) {
		t.Fatalf("a refused PUT changed the metadata")
	}
	if tree(t, central) != before {
		t.Fatal("tagging changed the skill")
	}

	// Snapshots answer as the CLI's --json, and a restore brings one back.
	snaps, _ := snapshot.List(fsys.OS{}, snapshot.Dir(c.m.Chronicle), "review")
	_, body, _ = c.do(t, "GET", "/api/skills/review/snapshots", "", "")
	var listed []snapshot.Snapshot
	if err := json.Unmarshal([]byte(body), &listed); err != nil || len(snaps) != 1 || !cmp.Equal(listed, snaps) {
		t.Fatalf("snapshots: %s\n%s", body, cmp.Diff(snaps, listed))
	}
	if err := os.WriteFile(filepath.Join(central, "SKILL.md"), []byte("---\nname: review\ndescription: edited\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	edited := tree(t, central)
	if code, _, _ := c.do(t, "POST", "/api/skills/review/restore", "application/json", `{"id":"9"}`); code != 404 || tree(t, central) != edited {
		t.Fatalf("restore of an unknown id: %d, or the skill changed", code)
	}
	if code, _, _ := c.do(t, "POST", "/api/skills/review/restore", "application/json", `{}`); code != 400 {
		t.Errorf("restore without an id: %d", code)
	}

	// While another process holds the state lock: 409 with the holder.
	l, err := lock.Acquire(t.Context(), filepath.Join(c.m.Chronicle, "state.lock"), "apply", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct{ method, path, body string }{
		{"POST", "/api/skills/review/restore", `{"id":"1"}`},
		{"PUT", "/api/skills/review/meta", `{"tags":[],"rating":1}`},
	} {
		code, body, _ := c.do(t, r.method, r.path, "application/json", r.body)
		var held struct {
			Error  string
			Holder lock.Holder
		}
		json.Unmarshal([]byte(body), &held)
		if code != 409 || held.Holder.PID != os.Getpid() || held.Holder.Operation != "apply" || !strings.Contains(held.Error, "locked") {
			t.Errorf("%s %s under the lock: %d %s", r.method, r.path, code, body)
		}
	}
	if tree(t, central) != edited {
		t.Fatal("a refused restore changed the skill")
	}
	l.Release()

	code, body, _ = c.do(t, "POST", "/api/skills/review/restore", "application/json", `{"id":"1"}`)
	if code != 200 || !strings.Contains(body, `"name": "review"`) || tree(t, central) != before {
		t.Fatalf("restore: %d %s", code, body)
	}
	snaps, _ = snapshot.List(fsys.OS{}, snapshot.Dir(c.m.Chronicle), "review")
	if len(snaps) != 2 || snaps[1].Kind != snapshot.KindRestore {
		t.Fatalf("after the restore: %+v", snaps)
	}
	if target, err := filepath.EvalSymlinks(c.m.Path(".claude/skills/review")); err != nil || target != central {
		t.Fatalf("the link no longer leads to the skill: %s %v", target, err)
	}
}

// tree is the tree hash of a folder.
func tree(t *testing.T, dir string) string {
	t.Helper()
	h, err := skills.Hash(fsys.OS{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestConsoleScanAndReview(t *testing.T) {
	c := startConsoleHub(t, "")
	var rv console.Review
	_, body, _ := c.do(t, "GET", "/api/mcp/review", "", "")
	if err := json.Unmarshal([]byte(body), &rv); err != nil {
		t.Fatal(err)
	}
	if rv.ConfigDirMissing || rv.ConfigDir != c.m.ConfigDir || rv.Plan == nil || rv.Summary == nil || !rv.Offline ||
		rv.Command != "chronicle apply --chdir "+c.m.ConfigDir || len(rv.Errors) > 0 {
		t.Fatalf("review: %s", body)
	}
	if *rv.Summary != (plan.Summary{}) || rv.Plan.HasChanges() {
		t.Fatalf("right after apply the plan has changes: %s", body)
	}
	_, scanBody, _ := c.do(t, "GET", "/api/mcp/scan", "", "")
	var sc struct {
		Skills []struct{ Tool, Name, Status string }
	}
	json.Unmarshal([]byte(scanBody), &sc)
	found := false
	for _, s := range sc.Skills {
		found = found || s.Tool == "claude" && s.Name == "review" && s.Status == "managed"
	}
	if !found {
		t.Fatalf("/api/mcp/scan: %s", scanBody)
	}

	// A new tool entry shows up once the review is computed again, and a
	// configuration folder that is gone is said so.
	c.m.Write(".cursor/mcp.json", `{"mcpServers":{"linear":{"command":"npx","args":["linear"]}}}`)
	if _, body, _ = c.do(t, "GET", "/api/mcp/review?wait=1", "", ""); !strings.Contains(body, `"name": "linear"`) || !strings.Contains(body, `"status": "new"`) {
		t.Fatalf("the review was not computed again: %s", body)
	}
	if err := os.Rename(c.m.ConfigDir, c.m.ConfigDir+".moved"); err != nil {
		t.Fatal(err)
	}
	_, body, _ = c.do(t, "GET", "/api/mcp/review?wait=1", "", "")
	rv = console.Review{}
	json.Unmarshal([]byte(body), &rv)
	if !rv.ConfigDirMissing || rv.Plan != nil || rv.Command != "" || len(rv.Scan.Skills) == 0 {
		t.Fatalf("config_dir gone: %s", body)
	}
}
