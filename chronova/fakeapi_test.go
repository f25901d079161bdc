package chronova

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

const testKey = "sk-test-SECRET-4f2a9c"

// fakeAPI is an httptest Chronova API serving the fixtures under /api/v1 and
// recording every request it gets.
type fakeAPI struct {
	*httptest.Server
	mu       sync.Mutex
	requests []*http.Request
}

// newFakeAPI starts the fake on 127.0.0.1 and stops it when the test ends.
func newFakeAPI(t *testing.T) *fakeAPI {
	t.Helper()
	f := &fakeAPI{}
	routes := map[string]string{
		"/api/v1/users/current":                   "users_current.json",
		"/api/v1/users/current/stats/last_7_days": "users_current_stats_last_7_days.json",
		"/api/v1/users/current/analytics/ai":      "users_current_analytics_ai.json",
		"/api/v1/users/current/heartbeats":        "users_current_heartbeats.json",
	}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.requests = append(f.requests, r.Clone(r.Context()))
		f.mu.Unlock()
		name, ok := routes[r.URL.Path]
		if !ok || r.Method != http.MethodGet {
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"error":"Not found"}`))
			return
		}
		if r.Header.Get("Authorization") != "Bearer "+testKey {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"error":"Unauthorized"}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(readFixture(t, "api/"+name))
	}))
	t.Cleanup(f.Close)
	return f
}

// apiURL is the fake's base URL, without a trailing slash on purpose.
func (f *fakeAPI) apiURL() string { return f.URL + "/api/v1" }

// last returns the most recent request.
func (f *fakeAPI) last(t *testing.T) *http.Request {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.requests) == 0 {
		t.Fatal("the fake API got no request")
	}
	return f.requests[len(f.requests)-1]
}

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// fixtureMember decodes a fixture, or its data member when member is "data".
func fixtureMember(t *testing.T, name, member string) any {
	t.Helper()
	var whole map[string]any
	if err := json.Unmarshal(readFixture(t, "api/"+name), &whole); err != nil {
		t.Fatal(err)
	}
	if member == "" {
		return whole
	}
	return whole[member]
}

// errorCase is one entry of testdata/errors/cases.json.
type errorCase struct {
	Status     int               `json:"status"`
	StatusText string            `json:"statusText"`
	Headers    map[string]string `json:"headers"`
	Body       json.RawMessage   `json:"body"`
	Code       string            `json:"code"`
	Network    string            `json:"network"`
	Text       string            `json:"text"`
}

func loadErrorCases(t *testing.T) []errorCase {
	t.Helper()
	var doc struct {
		Cases []errorCase `json:"cases"`
	}
	if err := json.Unmarshal(readFixture(t, "errors/cases.json"), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Cases
}

// statusServer answers every request with the case's status and headers.
// "<now_epoch_seconds + N>" in a header becomes the Unix time N seconds on.
func statusServer(t *testing.T, c errorCase) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range c.Headers {
			if rest, ok := strings.CutPrefix(v, "<now_epoch_seconds + "); ok {
				var n int64
				if err := json.Unmarshal([]byte(strings.TrimSuffix(rest, ">")), &n); err != nil {
					t.Errorf("header %s: %v", k, err)
				}
				// Keep clear of a second boundary so "now" is the same
				// second here and in the client.
				for time.Now().Nanosecond() > 800_000_000 {
					time.Sleep(10 * time.Millisecond)
				}
				v = jsonInt(time.Now().Unix() + n)
			}
			w.Header().Set(k, v)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(c.Status)
		w.Write(c.Body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func jsonInt(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// hangingServer accepts requests and never answers them.
func hangingServer(t *testing.T) *hanging {
	t.Helper()
	h := &hanging{arrived: make(chan struct{}, 16), dropped: make(chan struct{}, 16)}
	release := make(chan struct{})
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.arrived <- struct{}{}
		select {
		case <-r.Context().Done():
			h.dropped <- struct{}{}
		case <-release:
		}
	}))
	t.Cleanup(func() { close(release); h.Close() })
	return h
}

// A hanging server never answers. arrived receives once per request that
// reached it, dropped once per request its client gave up on.
type hanging struct {
	*httptest.Server
	arrived, dropped chan struct{}
}

// refusedURL is an http URL on 127.0.0.1 where nothing listens any more.
func refusedURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return (&url.URL{Scheme: "http", Host: addr, Path: "/api/v1"}).String()
}

// newTestClient is a Client with the test key for baseURL.
func newTestClient(t *testing.T, baseURL string) *Client {
	t.Helper()
	c, err := NewClient(Credentials{Key: testKey, KeySource: SourceEnvKey, URL: baseURL, URLSource: SourceEnvURL})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
