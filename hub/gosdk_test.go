//lint:file-ignore SA1019 logging is deprecated only from 2026-07-28; the hub still forwards it on the session revisions

package hub

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/internal/waitfor"
)

// goSDKSession connects the Go SDK to the hub at endpoint with a revision
// ("" for the SDK's latest).
func goSDKSession(t *testing.T, endpoint, version string, opts *gosdk.ClientOptions) *gosdk.ClientSession {
	t.Helper()
	c := gosdk.NewClient(&gosdk.Implementation{Name: "go-sdk-test", Version: "1"}, opts)
	cs, err := c.Connect(context.Background(), &gosdk.StreamableClientTransport{Endpoint: endpoint}, &gosdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("Go SDK connect (%s): %v", version, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func goText(res *gosdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*gosdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// TestGoSDKRevisions: the Go SDK handshakes, lists and calls through the hub
// on every revision it speaks, over HTTP and stdio.
func TestGoSDKRevisions(t *testing.T) {
	if testing.Short() {
		t.Skip("the real-client matrix is not short")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	writeState(t, path, []service.Service{everythingService(t)}, nil)
	r := startHub(t, path)
	for _, v := range []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"} {
		cs := goSDKSession(t, r.url+"/mcp", v, nil)
		if init := cs.InitializeResult(); init != nil && init.ProtocolVersion != v {
			t.Errorf("Go SDK asked for %s and got %s", v, init.ProtocolVersion)
		}
		tools, err := cs.ListTools(bounded(t), nil)
		if err != nil {
			t.Errorf("%s tools/list: %v", v, err)
			continue
		}
		names := map[string]bool{}
		for _, tl := range tools.Tools {
			names[tl.Name] = true
		}
		if !names["everything__echo"] || !names["everything__simulate-research-query"] {
			t.Errorf("%s tools: %v", v, names)
		}
		res, err := cs.CallTool(bounded(t), &gosdk.CallToolParams{Name: "everything__echo", Arguments: map[string]any{"message": v}})
		if err != nil || goText(res) != "Echo: "+v {
			t.Errorf("%s call: %v %v", v, res, err)
		}
	}

	// serve --stdio: this test binary serving the state.
	exe, _ := os.Executable()
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), stdioStateEnv+"="+path)
	c := gosdk.NewClient(&gosdk.Implementation{Name: "go-sdk-test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &gosdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("Go SDK over stdio: %v", err)
	}
	defer cs.Close()
	res, err := cs.CallTool(bounded(t), &gosdk.CallToolParams{Name: "everything__echo", Arguments: map[string]any{"message": "stdio"}})
	if err != nil || goText(res) != "Echo: stdio" {
		t.Errorf("stdio call: %v %v", res, err)
	}
}

// TestConcurrentSessionsProgressAndLogLevels: two sessions call at once
// with the same progress token and ask for different log levels; each gets
// only its own progress, under its own token, and the log messages its level
// allows. The upstream sees hub-unique tokens and the rest of _meta intact.
func TestConcurrentSessionsProgressAndLogLevels(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	writeState(t, path, []service.Service{testService("rec", "recorder", "")}, nil)
	r := startHub(t, path)

	type observed struct {
		mu       sync.Mutex
		progress []float64
		tokens   map[any]bool
		levels   []string
		want     int           // log messages to wait for
		last     chan struct{} // they arrived
		third    chan struct{} // three progress notifications arrived
	}
	newSession := func() (*gosdk.ClientSession, *observed) {
		o := &observed{tokens: map[any]bool{}, last: make(chan struct{}, 1), third: make(chan struct{}, 1)}
		cs := goSDKSession(t, r.url+"/mcp", "2025-11-25", &gosdk.ClientOptions{
			ProgressNotificationHandler: func(_ context.Context, req *gosdk.ProgressNotificationClientRequest) {
				o.mu.Lock()
				defer o.mu.Unlock()
				o.progress = append(o.progress, req.Params.Progress)
				o.tokens[fmt.Sprint(req.Params.ProgressToken)] = true
				if len(o.progress) == 3 {
					o.third <- struct{}{}
				}
			},
			LoggingMessageHandler: func(_ context.Context, req *gosdk.LoggingMessageRequest) {
				o.mu.Lock()
				defer o.mu.Unlock()
				o.levels = append(o.levels, string(req.Params.Level)+"@"+req.Params.Logger)
				if len(o.levels) == o.want {
					o.last <- struct{}{}
				}
			},
		})
		return cs, o
	}
	a, ao := newSession()
	b, bo := newSession()
	ao.want, bo.want = 8, 4
	if err := a.SetLoggingLevel(bounded(t), &gosdk.SetLoggingLevelParams{Level: "debug"}); err != nil {
		t.Fatal(err)
	}
	if err := b.SetLoggingLevel(bounded(t), &gosdk.SetLoggingLevelParams{Level: "error"}); err != nil {
		t.Fatal(err)
	}

	// Every wait below is bounded: a broken rewrite of progress tokens
	// loses notifications, and the test must fail, not hang.
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	seen := make([]string, 2)
	var wg sync.WaitGroup
	for i, cs := range []*gosdk.ClientSession{a, b} {
		wg.Go(func() {
			params := &gosdk.CallToolParams{Name: "rec__progress", Meta: gosdk.Meta{"x-trace": "kept"}}
			params.SetProgressToken("same")
			res, err := cs.CallTool(ctx, params)
			if err != nil {
				t.Errorf("session %d: %v", i, err)
				return
			}
			seen[i] = goText(res)
		})
	}
	wg.Wait()
	var metas [2]map[string]any
	for i, s := range seen {
		if err := json.Unmarshal([]byte(s), &metas[i]); err != nil {
			t.Fatalf("the upstream's record %q: %v", s, err)
		}
		if metas[i]["x-trace"] != "kept" {
			t.Errorf("session %d: _meta did not reach the upstream whole: %v", i, metas[i])
		}
	}
	if metas[0]["progressToken"] == "same" || metas[0]["progressToken"] == metas[1]["progressToken"] {
		t.Errorf("the upstream saw the client's token or one shared by both: %v, %v", metas[0]["progressToken"], metas[1]["progressToken"])
	}
	// The Go SDK runs notification handlers on goroutines of their own:
	// wait for the last progress notification of each call.
	waitfor.Receive(t, ao.third, "session a's third progress notification")
	waitfor.Receive(t, bo.third, "session b's third progress notification")
	for name, o := range map[string]*observed{"a": ao, "b": bo} {
		o.mu.Lock()
		if len(o.progress) != 3 || len(o.tokens) != 1 || !o.tokens["same"] {
			t.Errorf("session %s got progress %v with tokens %v, want its own three under \"same\"", name, o.progress, o.tokens)
		}
		o.mu.Unlock()
	}

	// Only a logs; each session gets what its level allows.
	if _, err := a.CallTool(ctx, &gosdk.CallToolParams{Name: "rec__logs"}); err != nil {
		t.Fatal(err)
	}
	waitfor.Receive(t, ao.last, "the eight log messages of session a, at debug")
	waitfor.Receive(t, bo.last, "the four log messages of session b, at error")
	ao.mu.Lock()
	bo.mu.Lock()
	defer ao.mu.Unlock()
	defer bo.mu.Unlock()
	// The Go SDK handles notifications concurrently: compare as sets.
	sort.Strings(ao.levels)
	sort.Strings(bo.levels)
	if got := strings.Join(ao.levels, ","); got != "alert@rec/recorder,critical@rec/recorder,debug@rec/recorder,emergency@rec/recorder,error@rec/recorder,info@rec/recorder,notice@rec/recorder,warning@rec/recorder" {
		t.Errorf("session at debug got %s, want all eight levels from rec/recorder", got)
	}
	if got := strings.Join(bo.levels, ","); got != "alert@rec/recorder,critical@rec/recorder,emergency@rec/recorder,error@rec/recorder" {
		t.Errorf("session at error got %s, want error and above", got)
	}
}

// TestStdioProgressPrecedesResult reads what serve --stdio writes: every
// progress notification of a call comes before its result, under the
// client's own token.
func TestStdioProgressPrecedesResult(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	writeState(t, path, []service.Service{testService("rec", "recorder", "")}, nil)
	p := startStdio(t, newTestHub(t, path, Options{ListGrace: testGrace}))
	p.send(t, initialize)
	p.until(t, `"id":1`)
	p.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	p.send(t, `{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"rec__progress","_meta":{"progressToken":"mine"}}}`)
	progress := 0
	for _, line := range p.until(t, `"id":"c1"`) {
		if strings.Contains(line, `"notifications/progress"`) {
			if !strings.Contains(line, `"progressToken":"mine"`) {
				t.Errorf("progress under another token: %s", line)
			}
			progress++
		}
	}
	if progress != 3 {
		t.Errorf("%d progress notifications before the result, want 3", progress)
	}
}
