package hub

import (
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/engine/state"
)

func postJSON(t *testing.T, url, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := testHTTP.Do(withToken(req))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestManagementAPI calls the /api endpoints the inspector page reads.
func TestManagementAPI(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	alpha := testService("alpha", "alpha", "")
	alpha.Env["ALPHA_TOKEN"] = secret.Literal("plain-secret-value-123456")
	beta := testService("beta", "beta", filepath.Join(dir, "proj"))
	writeState(t, path, []service.Service{alpha, beta}, map[string]state.Policy{"alpha": {DisabledTools: []string{"delete_*"}}})
	r := startHub(t, path)

	code, body := postJSON(t, r.url+"/api/call", `{"name":"alpha__echo","arguments":{"text":"via api"}}`)
	if code != 200 || !strings.Contains(body, "alpha:via api") {
		t.Fatalf("/api/call: %d %s", code, body)
	}
	if code, body := postJSON(t, r.url+"/api/call", `{"name":"alpha__delete_everything"}`); code != 200 || !strings.Contains(body, `"isError": true`) {
		t.Errorf("/api/call of a disabled tool: %d %s", code, body)
	}
	if code, _ := postJSON(t, r.url+"/api/call", `{"name":"beta__echo","arguments":{"text":"x"}}`); code != 404 {
		t.Errorf("/api/call out of scope: %d, want 404", code)
	}
	if code, body := postJSON(t, r.url+"/api/call", `{"name":"beta__echo","arguments":{"text":"x"},"root":"`+filepath.Join(dir, "proj")+`"}`); code != 200 || !strings.Contains(body, "beta:x") {
		t.Errorf("/api/call with a root: %d %s", code, body)
	}

	var tools []struct {
		Name, Service, Tool string
		Blocked             bool
	}
	json.Unmarshal([]byte(getJSON(t, r.url+"/api/tools")), &tools)
	blocked := map[string]bool{}
	for _, tl := range tools {
		blocked[tl.Name] = tl.Blocked
	}
	if v, ok := blocked["alpha__delete_everything"]; !ok || !v || blocked["alpha__echo"] {
		t.Errorf("/api/tools: %+v", tools)
	}
	services := getJSON(t, r.url+"/api/services")
	if strings.Contains(services, "plain-secret-value-123456") || !strings.Contains(services, `"ALPHA_TOKEN"`) {
		t.Errorf("/api/services is not masked: %s", services)
	}
	logs := getJSON(t, r.url+"/api/log")
	if !strings.Contains(logs, `"direction": "blocked"`) || !strings.Contains(logs, `"direction": "note"`) {
		t.Errorf("/api/log lacks the blocked call or notes: %.500s", logs)
	}
	// The API is behind the same rules as /mcp.
	req, _ := http.NewRequest("GET", r.url+"/api/status", nil)
	req.Header.Set("Origin", "https://evil.example")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 403 {
		t.Errorf("/api/status with a foreign Origin: %v %v", resp.StatusCode, err)
	}
}

// TestHiddenToolCounts: /api/tools and /api/status count the same tools,
// so that chronicle tools (which reads /api/tools) and the console agree
// (issue 21, item 18); a tool that can only be called as a task is offered
// like any other (decision 0210).
func TestHiddenToolCounts(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	writeState(t, path, []service.Service{testService("tasks", "tasks", "")}, nil)
	r := startHub(t, path)

	var tools []struct {
		Name    string `json:"name"`
		Blocked bool   `json:"blocked"`
		Hidden  string `json:"hidden"`
	}
	if err := json.Unmarshal([]byte(getJSON(t, r.url+"/api/tools")), &tools); err != nil {
		t.Fatal(err)
	}
	offered := 0
	hidden := map[string]string{}
	for _, tl := range tools {
		hidden[tl.Name] = tl.Hidden
		if !tl.Blocked && tl.Hidden == "" {
			offered++
		}
	}
	if len(tools) != 2 || offered != 2 || hidden["tasks__long_job"] != "" || hidden["tasks__echo"] != "" {
		t.Fatalf("/api/tools: %+v", tools)
	}
	var st struct {
		Services []struct {
			Name   string   `json:"name"`
			Tools  int      `json:"tools"`
			Hidden []string `json:"hidden"`
		} `json:"services"`
		Endpoints []struct {
			Endpoint string `json:"endpoint"`
			Tools    int    `json:"tools"`
		} `json:"endpoints"`
	}
	if err := json.Unmarshal([]byte(getJSON(t, r.url+"/api/status")), &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Services) != 1 || st.Services[0].Tools != offered || len(st.Services[0].Hidden) != 0 {
		t.Errorf("/api/status counts %+v, /api/tools offers %d", st.Services, offered)
	}
	for _, e := range st.Endpoints {
		if e.Endpoint == "/mcp" && e.Tools != offered {
			t.Errorf("/api/status: %s offers %d tools, /api/tools %d", e.Endpoint, e.Tools, offered)
		}
	}
}
