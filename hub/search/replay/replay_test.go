package replay

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

const recordings = "../testdata/catalogue"

func TestEveryRecordingLoadsAndDecodes(t *testing.T) {
	recs, err := LoadDir(recordings)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, r := range recs {
		if r.Package == "" || r.Version == "" || r.License == "" {
			t.Errorf("%s: package %q, version %q, license %q: a recording must say where it came from", r.Service, r.Package, r.Version, r.License)
		}
		tools, err := r.Decoded()
		if err != nil {
			t.Error(err)
			continue
		}
		for _, tool := range tools {
			if tool.Name == "" || !json.Valid(tool.RawInputSchema) {
				t.Errorf("%s: tool %q has schema %s", r.Service, tool.Name, tool.RawInputSchema)
			}
		}
		total += len(tools)
	}
	if total < 300 {
		t.Errorf("the catalogue holds %d tools, want at least 300", total)
	}
}

func TestLoadNamesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "broken.json")
	os.WriteFile(path, []byte(`{"service": `), 0o644)
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("Load of a broken file: %v", err)
	}
}

// TestReplayUpstreamServesTheRecording builds the command, starts it as a
// real process over stdio, and checks that it lists what was recorded and
// answers a call with the tool's name and arguments.
func TestReplayUpstreamServesTheRecording(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "replay-upstream")
	build := exec.Command("go", "build", "-o", bin, "./cmd/replay-upstream")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	path := filepath.Join(recordings, "github.json")
	rec, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tr := transport.NewStdio(bin, []string{"HOME=" + t.TempDir()}, path)
	if err := tr.Start(ctx); err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr, client.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION))
	defer c.Close()
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	resp, err := tr.SendRequest(ctx, transport.JSONRPCRequest{JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId("list"), Method: "tools/list"})
	if err != nil || resp.Error != nil {
		t.Fatalf("tools/list: %v %v", err, resp.Error)
	}
	var listed struct {
		Tools []struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(resp.Result, &listed); err != nil {
		t.Fatal(err)
	}
	recorded := map[string]map[string]any{}
	for _, raw := range rec.Tools {
		var tool map[string]any
		json.Unmarshal(raw, &tool)
		recorded[tool["name"].(string)] = tool
	}
	if len(listed.Tools) != len(recorded) {
		t.Fatalf("listed %d tools, recorded %d", len(listed.Tools), len(recorded))
	}
	for _, got := range listed.Tools {
		want := recorded[got.Name]
		if want == nil {
			t.Errorf("listed %s, which was not recorded", got.Name)
			continue
		}
		var schema any
		json.Unmarshal(got.InputSchema, &schema)
		if got.Description != want["description"] || !reflect.DeepEqual(schema, want["inputSchema"]) {
			t.Errorf("%s differs from the recording:\n got %s %s\nwant %v %v", got.Name, got.Description, got.InputSchema, want["description"], want["inputSchema"])
		}
	}

	var call mcp.CallToolRequest
	call.Params.Name = "create_issue"
	call.Params.Arguments = map[string]any{"owner": "o", "repo": "r", "title": "t"}
	res, err := c.CallTool(ctx, call)
	if err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].(mcp.TextContent).Text
	if want := `replayed create_issue with {"owner":"o","repo":"r","title":"t"}`; text != want || res.IsError {
		t.Errorf("call answered %q (error %v), want %q", text, res.IsError, want)
	}
}
