package hub

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// latencies records call times and reports p50 and p99.
type latencies struct {
	mu sync.Mutex
	d  []time.Duration
}

func (l *latencies) add(d time.Duration) { l.mu.Lock(); l.d = append(l.d, d); l.mu.Unlock() }

func (l *latencies) report(b *testing.B) {
	sort.Slice(l.d, func(i, j int) bool { return l.d[i] < l.d[j] })
	if len(l.d) == 0 {
		return
	}
	b.ReportMetric(float64(l.d[len(l.d)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(l.d[len(l.d)*99/100].Microseconds()), "p99-µs")
}

func echoReq() mcp.CallToolRequest {
	var req mcp.CallToolRequest
	req.Params.Arguments = map[string]any{"text": "ping"}
	return req
}

// BenchmarkCallDirect calls the test upstream's echo over stdio without the
// hub: the baseline for BenchmarkCallThroughHub.
func BenchmarkCallDirect(b *testing.B) {
	exe, _ := os.Executable()
	c, err := client.NewStdioMCPClientWithOptions(exe, []string{upstreamEnv + "=bench"}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	if _, err := c.Initialize(context.Background(), init); err != nil {
		b.Fatal(err)
	}
	req := echoReq()
	req.Params.Name = "echo"
	var l latencies
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		if _, err := c.CallTool(context.Background(), req); err != nil {
			b.Fatal(err)
		}
		l.add(time.Since(start))
	}
	l.report(b)
}

func benchHub(b *testing.B) *running {
	h := newBenchHub(b)
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	tok, err := h.EnsureToken()
	if err != nil {
		b.Fatal(err)
	}
	hubTokens.Store(ln.Addr().String(), tok)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = h.ServeHTTP(ctx, ln); close(done) }()
	r := &running{hub: h, url: "http://" + ln.Addr().String(), stop: func() {
		cancel()
		<-done
		hubTokens.Delete(ln.Addr().String())
	}}
	b.Cleanup(r.stop)
	return r
}

// newBenchHub makes a hub with one stdio service, bench: the test
// upstream, whose echo answers at once.
func newBenchHub(b *testing.B) *Hub {
	dir := b.TempDir()
	path := filepath.Join(dir, "state.json")
	exe, _ := os.Executable()
	st, _ := state.Load(path)
	st.Services = map[string]service.Service{"bench": {
		Name:       "bench",
		Definition: service.Definition{Transport: "stdio", Command: exe, Env: map[string]secretValue{upstreamEnv: secretLiteral("bench")}},
		Enabled:    true,
		Timeout:    time.Minute,
	}}
	st.Hub = &state.Hub{Listen: "127.0.0.1:0"}
	if err := st.Save(path); err != nil {
		b.Fatal(err)
	}
	h, err := New(Options{StatePath: path, Home: dir, Version: "bench", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	return h
}

func benchClient(b *testing.B, url string) *client.Client {
	var headers map[string]string
	if tok, ok := hubTokens.Load(strings.TrimPrefix(url, "http://")); ok {
		headers = map[string]string{"Authorization": "Bearer " + tok.(string)}
	}
	tr, err := transport.NewStreamableHTTP(url+"/mcp", transport.WithHTTPHeaders(headers))
	if err != nil {
		b.Fatal(err)
	}
	c := client.NewClient(tr, client.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION))
	if err := c.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	if _, err := c.Initialize(context.Background(), init); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	return c
}

// BenchmarkCallThroughHub calls the same echo through the hub over
// Streamable HTTP; the difference from BenchmarkCallDirect is the hub's cost.
func BenchmarkCallThroughHub(b *testing.B) {
	r := benchHub(b)
	c := benchClient(b, r.url)
	req := echoReq()
	req.Params.Name = "bench__echo"
	if _, err := c.CallTool(context.Background(), req); err != nil { // starts the upstream
		b.Fatal(err)
	}
	var l latencies
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		if _, err := c.CallTool(context.Background(), req); err != nil {
			b.Fatal(err)
		}
		l.add(time.Since(start))
	}
	l.report(b)
}

// BenchmarkSessions64 runs 64 client sessions calling at once: calls per
// second, and the heap in use with 64 live sessions.
func BenchmarkSessions64(b *testing.B) {
	r := benchHub(b)
	const sessions = 64
	clients := make([]*client.Client, sessions)
	for i := range clients {
		clients[i] = benchClient(b, r.url)
	}
	req := echoReq()
	req.Params.Name = "bench__echo"
	if _, err := clients[0].CallTool(context.Background(), req); err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ResetTimer()
	start := time.Now()
	calls := b.N
	var wg sync.WaitGroup
	work := make(chan struct{}, calls)
	for range calls {
		work <- struct{}{}
	}
	close(work)
	for _, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range work {
				if _, err := c.CallTool(context.Background(), req); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	b.ReportMetric(float64(calls)/time.Since(start).Seconds(), "calls/s")
	b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MB-64-sessions")
}

// BenchmarkStartToHealthy measures from New to a 200 on /health.
func BenchmarkStartToHealthy(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "state.json")
	st, _ := state.Load(path)
	st.Hub = &state.Hub{Listen: "127.0.0.1:0"}
	st.Save(path)
	for b.Loop() {
		h, err := New(Options{StatePath: path, Home: dir, Version: "bench", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			b.Fatal(err)
		}
		ln, _ := net.Listen("tcp", "127.0.0.1:0")
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { _ = h.ServeHTTP(ctx, ln); close(done) }()
		for {
			resp, err := http.Get(fmt.Sprintf("http://%s/health", ln.Addr()))
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode == 200 {
					break
				}
			}
		}
		cancel()
		<-done
	}
}
