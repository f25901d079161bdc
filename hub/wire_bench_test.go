package hub

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/internal/cputime"
)

// The wire benchmarks drive the hub with a few lines of JSON-RPC, so that
// a CPU profile of them shows the hub (and net/http), not an SDK client.
// bench/hub.sh measures the same against a separate process.

// A wireSession is a raw Streamable HTTP session.
type wireSession struct {
	c   *http.Client
	url string
	sid string
	id  int
	buf bytes.Buffer
}

func wireDial(tb testing.TB, c *http.Client, url string) *wireSession {
	tb.Helper()
	s := &wireSession{c: c, url: url + "/mcp"}
	if _, err := s.post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"wire","version":"1"}}}`); err != nil {
		tb.Fatal(err)
	}
	if _, err := s.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil {
		tb.Fatal(err)
	}
	return s
}

func (s *wireSession) post(body string) ([]byte, error) {
	req, _ := http.NewRequest(http.MethodPost, s.url, bytes.NewReader([]byte(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if s.sid != "" {
		req.Header.Set("Mcp-Session-Id", s.sid)
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	}
	resp, err := s.c.Do(withToken(req))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	s.buf.Reset()
	_, err = s.buf.ReadFrom(resp.Body)
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("%s: %s", resp.Status, s.buf.Bytes())
	}
	if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
		s.sid = id
	}
	return s.buf.Bytes(), err
}

func (s *wireSession) call() error { return s.callText("ping") }

// callText calls the echo tool with text, which its result holds.
func (s *wireSession) callText(text string) error {
	s.id++
	b, err := s.post(`{"jsonrpc":"2.0","id":` + strconv.Itoa(s.id) + `,"method":"tools/call","params":{"name":"bench__echo","arguments":{"text":"` + text + `"}}}`)
	if err == nil && !bytes.Contains(b, []byte(`"result"`)) {
		err = fmt.Errorf("not a result: %s", b)
	}
	return err
}

func wireClient() *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
}

// BenchmarkWireHTTPCall is one session's sequential tools/call through the
// hub over Streamable HTTP, to the test upstream over stdio.
func BenchmarkWireHTTPCall(b *testing.B) {
	r := benchHub(b)
	s := wireDial(b, wireClient(), r.url)
	if err := s.call(); err != nil { // starts the upstream
		b.Fatal(err)
	}
	sequential(b, func() {
		if err := s.call(); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkWireHTTPBigResult is BenchmarkWireHTTPCall with a result of
// 256 KiB: what each pass over a result's bytes costs.
func BenchmarkWireHTTPBigResult(b *testing.B) {
	r := benchHub(b)
	s := wireDial(b, wireClient(), r.url)
	text := strings.Repeat("a line of a file the tool read, ", 8<<10)
	if err := s.callText(text); err != nil {
		b.Fatal(err)
	}
	sequential(b, func() {
		if err := s.callText(text); err != nil {
			b.Fatal(err)
		}
	})
}

// sequential measures call, made again and again: its CPU per call (the
// hub and this client; the upstream is a process of its own), p50 and p99.
func sequential(b *testing.B, call func()) {
	var l latencies
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cputime.Used()
	for b.Loop() {
		start := time.Now()
		call()
		l.add(time.Since(start))
	}
	cputime.ReportPerOp(b, cpu)
	l.report(b)
}

// BenchmarkWireHTTPSessions16 is 16 sessions calling at once.
func BenchmarkWireHTTPSessions16(b *testing.B) {
	r := benchHub(b)
	c := wireClient()
	sessions := make([]*wireSession, 16)
	for i := range sessions {
		sessions[i] = wireDial(b, c, r.url)
	}
	if err := sessions[0].call(); err != nil {
		b.Fatal(err)
	}
	work := make(chan struct{}, b.N)
	for range b.N {
		work <- struct{}{}
	}
	close(work)
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	cpu := cputime.Used() // the hub and this client; the upstream is a process of its own
	var wg sync.WaitGroup
	for _, s := range sessions {
		wg.Go(func() {
			for range work {
				if err := s.call(); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	cputime.ReportPerOp(b, cpu)
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "calls/s")
}

// BenchmarkWireStdioCall is sequential tools/call through ServeStdio.
func BenchmarkWireStdioCall(b *testing.B) {
	h := newBenchHub(b)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = h.ServeStdio(ctx, inR, outW); close(done) }()
	b.Cleanup(func() { cancel(); inW.Close(); outR.Close(); <-done })
	out := bufio.NewReader(outR)
	id := 0
	roundTrip := func(msg string, want bool) {
		if _, err := io.WriteString(inW, msg+"\n"); err != nil {
			b.Fatal(err)
		}
		for want {
			line, err := out.ReadBytes('\n')
			if err != nil {
				b.Fatal(err)
			}
			if bytes.Contains(line, []byte(`"id":`+strconv.Itoa(id)+`,`)) {
				return
			}
		}
	}
	roundTrip(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"wire","version":"1"}}}`, true)
	roundTrip(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, false)
	call := func() {
		id++
		roundTrip(`{"jsonrpc":"2.0","id":`+strconv.Itoa(id)+`,"method":"tools/call","params":{"name":"bench__echo","arguments":{"text":"ping"}}}`, true)
	}
	call()
	sequential(b, call)
}
