package hub

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/engine/service"
)

// tasksMeta is the _meta of a 2026-07-28 request from a client that
// declares the tasks extension (io.modelcontextprotocol/tasks).
const tasksMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
	`"io.modelcontextprotocol/clientInfo":{"name":"test","version":"1"},` +
	`"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`

// statelessTask is a 2026-07-28 client of one endpoint, raw JSON-RPC over
// HTTP: @modelcontextprotocol/client 2.4.0 refuses a resultType "task"
// ("Unsupported result type"), so no SDK at hand speaks the extension.
type statelessTask struct {
	t   *testing.T
	url string
}

// call sends method with params (a JSON object's members, without braces)
// and the _meta given, naming name in the Mcp-Name header; it returns the
// HTTP status and the answer.
func (c statelessTask) call(method, name, params, meta string) (int, map[string]any) {
	c.t.Helper()
	if params != "" {
		meta = "," + meta
	}
	return postModern(c.t, bounded(c.t), c.url, method, name, "{"+params+meta+"}")
}

// task sends a tasks request for handle as a declaring client.
func (c statelessTask) task(method, handle string) (int, map[string]any) {
	c.t.Helper()
	h, _ := json.Marshal(handle)
	return c.call(method, handle, `"taskId":`+string(h), tasksMeta)
}

// rpcCode is the code of an answer's error, 0 for a result.
func rpcCode(answer map[string]any) int {
	e, _ := answer["error"].(map[string]any)
	code, _ := e["code"].(float64)
	return int(code)
}

// TestStatelessTasks: a 2026-07-28 client that declares the tasks extension
// calls server-everything's research, which the server (2025-11-25) runs
// only as a task: the hub answers with the extension's flat CreateTaskResult
// under a sealed handle, and serves tasks/get (the result inlined once the
// task completed), tasks/cancel (the upstream reports the task cancelled)
// and tasks/update; a handle altered, made up, or another caller's is
// refused; a client that did not declare the extension gets the result of
// the call itself, and is refused the tasks requests with -32021 (decision
// 0235).
func TestStatelessTasks(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	writeState(t, path, []service.Service{everythingService(t), testService("tasks", "tasks", "")}, nil)
	r := startHub(t, path)
	c := statelessTask{t, r.url + "/mcp"}
	research := "everything__simulate-research-query"

	_, disc := c.call("server/discover", "", "", tasksMeta)
	res, _ := disc["result"].(map[string]any)
	caps, _ := res["capabilities"].(map[string]any)
	ext, _ := caps["extensions"].(map[string]any)
	if _, ok := ext["io.modelcontextprotocol/tasks"]; !ok || caps["tasks"] != nil {
		t.Errorf("server/discover declares %v; want the tasks extension under extensions, no tasks capability", caps)
	}

	handle := c.create(research, "hubs")
	status, got := c.task("tasks/get", handle)
	if g, _ := got["result"].(map[string]any); status != http.StatusOK || g["taskId"] != handle || g["resultType"] != "complete" {
		t.Fatalf("tasks/get at once: HTTP %d %v", status, got)
	}
	done := c.until(handle, "completed")
	result, _ := done["result"].(map[string]any)
	if !strings.Contains(toolText(result), "# Research Report: hubs") {
		t.Errorf("the completed task's result: %v", done["result"])
	}
	if meta, _ := result["_meta"].(map[string]any); meta[mcp.RelatedTaskMetaKey] != nil {
		t.Errorf("the inlined result keeps the upstream's related task: %v", meta)
	}
	for _, legacy := range []string{"ttl", "pollInterval", "task", "error", "inputRequests"} {
		if _, ok := done[legacy]; ok {
			t.Errorf("the completed task carries %q: %v", legacy, done)
		}
	}
	// Asked again, the ended task answers the same (tasks/result of an
	// ended 2025-11-25 task answers at once, as often as asked).
	_, again := c.task("tasks/get", handle)
	if res, _ := resultOf(again)["result"].(map[string]any); !strings.Contains(toolText(res), "# Research Report: hubs") {
		t.Errorf("tasks/get of the completed task again: %v", again)
	}

	// Cancelled: acknowledged empty; the upstream then reports the task
	// cancelled; cancelled again (it ended), acknowledged the same.
	second := c.create(research, "slow")
	for round := range 2 {
		status, got := c.task("tasks/cancel", second)
		if g, _ := got["result"].(map[string]any); status != http.StatusOK || len(g) != 1 || g["resultType"] != "complete" {
			t.Errorf("tasks/cancel (round %d): HTTP %d %v; want {resultType: complete}", round, status, got)
		}
	}
	if _, got := c.task("tasks/get", second); resultOf(got)["status"] != "cancelled" {
		t.Errorf("tasks/get after tasks/cancel: %v", got)
	}
	// tasks/update: a 2025-11-25 task has none; keys the hub never issued
	// are ignored, as the extension says.
	h, _ := json.Marshal(second)
	if status, got := c.call("tasks/update", second, `"taskId":`+string(h)+`,"inputResponses":{"k":{"action":"accept"}}`, tasksMeta); status != http.StatusOK || rpcCode(got) != 0 {
		t.Errorf("tasks/update: HTTP %d %v", status, got)
	}

	// Refused alike: altered, made up, cut short, and another caller's —
	// another endpoint's, a session-era client's.
	payload, mac, _ := strings.Cut(handle, ".")
	b, _ := base64.RawURLEncoding.DecodeString(payload)
	forged := base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(b), `"s":"everything"`, `"s":"tasks"`, 1))) + "." + mac
	for name, bad := range map[string]string{"altered": forged, "made up": "786512e2-9e0d-44bd-8f29-789f320fe840", "cut short": handle[:len(handle)-3]} {
		if status, got := c.task("tasks/get", bad); status != http.StatusBadRequest || rpcCode(got) != mcp.INVALID_PARAMS {
			t.Errorf("tasks/get of a %s handle: HTTP %d %v; want 400 and -32602", name, status, got)
		}
	}
	for _, other := range []string{r.url + "/mcp/service/everything", r.url + "/mcp?root=" + url.QueryEscape(dir)} {
		for _, m := range []string{"tasks/get", "tasks/cancel"} {
			if _, got := (statelessTask{t, other}).task(m, handle); rpcCode(got) != mcp.INVALID_PARAMS {
				t.Errorf("%s of /mcp's handle on %s: %v; want -32602", m, other, got)
			}
		}
	}
	// One service's endpoint, under the server's own names: its handles
	// are its own.
	svc := statelessTask{t, r.url + "/mcp/service/everything"}
	own := svc.create("simulate-research-query", "own names")
	if status, got := svc.task("tasks/cancel", own); status != http.StatusOK || resultOf(got)["resultType"] != "complete" {
		t.Errorf("tasks/cancel on /mcp/service/everything: HTTP %d %v", status, got)
	}
	if _, got := c.task("tasks/get", own); rpcCode(got) != mcp.INVALID_PARAMS {
		t.Errorf("/mcp/service/everything's handle on /mcp: %v; want -32602", got)
	}
	session := connectTasks(t, r.url+"/mcp")
	if code := session.taskError(t, string(mcp.MethodTasksGet), handle); code != mcp.INVALID_PARAMS {
		t.Errorf("a session-era client's tasks/get of a stateless handle: error %d, want -32602", code)
	}
	theirs := session.startTask(t, research, map[string]any{"topic": "theirs"})
	if _, got := c.task("tasks/get", theirs); rpcCode(got) != mcp.INVALID_PARAMS {
		t.Errorf("tasks/get of a session's handle: %v; want -32602", got)
	}
	_, _ = session.CancelTask(bounded(t), mcp.CancelTaskRequest{Params: mcp.CancelTaskParams{TaskId: theirs}})

	// The headers: Mcp-Name must name the task (SEP-2663, SEP-2243).
	hq, _ := json.Marshal(handle)
	if status, got := c.call("tasks/get", "another-task", `"taskId":`+string(hq), tasksMeta); status != http.StatusBadRequest || rpcCode(got) != mcp.HEADER_MISMATCH {
		t.Errorf("tasks/get with a mismatched Mcp-Name: HTTP %d %v; want 400 and -32020", status, got)
	}

	// A client that did not declare the extension: the call's own result,
	// and the tasks requests refused as SEP-2663 says.
	status, got = c.call("tools/call", research, `"name":"`+research+`","arguments":{"topic":"plain"}`, modernMeta)
	plain, _ := got["result"].(map[string]any)
	if status != http.StatusOK || plain["resultType"] != "complete" || plain["taskId"] != nil || !strings.Contains(toolText(plain), "# Research Report: plain") {
		t.Errorf("an undeclaring client's call: HTTP %d %v", status, got)
	}
	status, got = c.call("tasks/get", handle, `"taskId":`+string(hq), modernMeta)
	e, _ := got["error"].(map[string]any)
	data, _ := e["data"].(map[string]any)
	if required, _ := data["requiredCapabilities"].(map[string]any); status != http.StatusBadRequest || rpcCode(got) != mcp.MISSING_REQUIRED_CLIENT_CAPABILITY || required["extensions"] == nil {
		t.Errorf("an undeclaring client's tasks/get: HTTP %d %v; want 400 and -32021 naming the extension", status, got)
	}
	// A tool that is no task is called plainly, for a declaring client too.
	if _, got := c.call("tools/call", "tasks__echo", `"name":"tasks__echo","arguments":{"text":"x"}`, tasksMeta); resultOf(got)["resultType"] != "complete" {
		t.Errorf("tasks__echo for a declaring client: %v", got)
	}
}

// create calls tool for topic as a declaring client and returns the handle
// of the task it was answered with, checked against the extension's
// CreateTaskResult: flat, resultType "task", ttlMs in place of ttl.
func (c statelessTask) create(tool, topic string) string {
	c.t.Helper()
	status, got := c.call("tools/call", tool, `"name":"`+tool+`","arguments":{"topic":"`+topic+`"}`, tasksMeta)
	created, _ := got["result"].(map[string]any)
	handle, _ := created["taskId"].(string)
	if status != http.StatusOK || created["resultType"] != "task" || created["status"] != "working" || !strings.Contains(handle, ".") {
		c.t.Fatalf("a task of %s: HTTP %d %v", tool, status, got)
	}
	if ttl, ok := created["ttlMs"].(float64); !ok || ttl != 300000 {
		c.t.Errorf("ttlMs %v: server-everything keeps its research 300000 ms", created["ttlMs"])
	}
	for _, legacy := range []string{"task", "ttl", "pollInterval", "result"} {
		if _, ok := created[legacy]; ok {
			c.t.Errorf("the CreateTaskResult carries %q: %v", legacy, created)
		}
	}
	return handle
}

// until polls tasks/get for handle, request after request, until the task
// has the status (failing if it ends otherwise), within the test's bound.
func (c statelessTask) until(handle, status string) map[string]any {
	c.t.Helper()
	ctx := bounded(c.t)
	for ctx.Err() == nil {
		_, got := c.task("tasks/get", handle)
		g, _ := got["result"].(map[string]any)
		switch g["status"] {
		case status:
			return g
		case "completed", "failed", "cancelled":
			c.t.Fatalf("the task ended %v, not %s: %v", g["status"], status, got)
		case nil:
			c.t.Fatalf("tasks/get: %v", got)
		}
	}
	c.t.Fatalf("the task did not become %s in time", status)
	return nil
}

// toolText is the text of a tool result's content, as JSON decoded it.
func toolText(res map[string]any) string {
	var b strings.Builder
	content, _ := res["content"].([]any)
	for _, ct := range content {
		if m, _ := ct.(map[string]any); m["type"] == "text" {
			s, _ := m["text"].(string)
			b.WriteString(s)
		}
	}
	return b.String()
}

// resultOf is an answer's result, nil for an error.
func resultOf(answer map[string]any) map[string]any {
	r, _ := answer["result"].(map[string]any)
	return r
}
