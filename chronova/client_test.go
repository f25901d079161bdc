package chronova

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestClientNormalisesBaseURL(t *testing.T) {
	api := newFakeAPI(t)
	for _, base := range []string{api.apiURL(), api.apiURL() + "/", api.apiURL() + "#frag"} {
		t.Run(base, func(t *testing.T) {
			c := newTestClient(t, base)
			if _, err := c.Get(context.Background(), "users/current", nil); err != nil {
				t.Fatal(err)
			}
			if got := api.last(t).URL.Path; got != "/api/v1/users/current" {
				t.Errorf("path = %q, want /api/v1/users/current", got)
			}
			if got := c.BaseURL(); got != api.apiURL()+"/" {
				t.Errorf("BaseURL() = %q, want %q", got, api.apiURL()+"/")
			}
		})
	}
}

func TestClientSendsHeadersAndOmitsEmptyQuery(t *testing.T) {
	api := newFakeAPI(t)
	c := newTestClient(t, api.apiURL())
	_, err := c.Get(context.Background(), "users/current/heartbeats",
		map[string]string{"date": "", "project": "api server", "per_page": "10", "editor": ""})
	if err != nil {
		t.Fatal(err)
	}
	r := api.last(t)
	if got := r.Header.Get("Authorization"); got != "Bearer "+testKey {
		t.Errorf("Authorization = %q", got)
	}
	if got := r.Header.Get("Accept"); got != "application/json" {
		t.Errorf("Accept = %q", got)
	}
	if got, want := r.URL.RawQuery, "per_page=10&project=api+server"; got != want {
		t.Errorf("query = %q, want %q", got, want)
	}
}

func TestClientErrorCases(t *testing.T) {
	for _, tc := range loadErrorCases(t) {
		if tc.Status == 0 && strings.Contains(tc.Network, "timeout") {
			continue // the bridge words timeouts its own way; see TestClientTimeout
		}
		name := tc.Code + " " + tc.StatusText + " " + tc.Network
		t.Run(name, func(t *testing.T) {
			base := refusedURL(t)
			if tc.Status != 0 {
				base = statusServer(t, tc).URL + "/api/v1"
			}
			c := newTestClient(t, base)
			_, err := c.Get(context.Background(), "users/current/analytics/ai", map[string]string{"range": "last_7_days"})
			want := strings.ReplaceAll(tc.Text, "<full request URL incl. query>",
				base+"/users/current/analytics/ai?range=last_7_days")
			var apiErr *APIError
			if !errors.As(err, &apiErr) {
				t.Fatalf("err = %v (%T), want *APIError", err, err)
			}
			if apiErr.Error() != want {
				t.Errorf("text = %q\nwant   %q", apiErr.Error(), want)
			}
			if apiErr.Code != tc.Code || apiErr.Status != tc.Status {
				t.Errorf("code, status = %s, %d; want %s, %d", apiErr.Code, apiErr.Status, tc.Code, tc.Status)
			}
			if strings.Contains(apiErr.Error(), testKey) {
				t.Error("the error text contains the API key")
			}
		})
	}
}

// TestClientTimeout: a hung request is cut by the client's timeout: the
// error says so, and the server sees the client give up on the request.
func TestClientTimeout(t *testing.T) {
	srv := hangingServer(t)
	c := newTestClient(t, srv.URL+"/api/v1")
	c.Timeout = 150 * time.Millisecond
	_, err := c.Get(context.Background(), "users/current/stats/today", map[string]string{"project": "x"})
	want := "Timed out after 150ms waiting for Chronova at " + srv.URL + "/api/v1/users/current/stats/today?project=x."
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v\nwant  %s", err, want)
	}
	select {
	case <-srv.dropped:
	case <-time.After(time.Minute): // a hang guard, not a measurement
		t.Fatal("the server never saw the timed-out request dropped")
	}
}

func TestClientDefaultTimeoutIsPrinted(t *testing.T) {
	if got := timeoutError("https://x/api/v1/users/current", DefaultTimeout).Error(); got !=
		"Timed out after 30s waiting for Chronova at https://x/api/v1/users/current." {
		t.Errorf("text = %q", got)
	}
}

func TestClientCancelled(t *testing.T) {
	srv := hangingServer(t)
	c := newTestClient(t, srv.URL)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-srv.arrived // cancel the request once it is under way
		cancel()
	}()
	_, err := c.Get(ctx, "users/current", nil)
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Code != CodeCancelled {
		t.Fatalf("err = %v, want a %s APIError", err, CodeCancelled)
	}
}

func TestClientRejectsNonJSON(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("<html>maintenance</html>"))
	}))
	defer srv.Close()
	_, err := newTestClient(t, srv.URL).Get(context.Background(), "users/current", nil)
	want := "Unexpected response from Chronova at " + srv.URL + "/users/current: the body is not JSON."
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
}

func TestClientWithoutKey(t *testing.T) {
	api := newFakeAPI(t)
	c, err := NewClient(Credentials{URL: api.apiURL(), URLSource: SourceEnvURL})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Get(context.Background(), "users/current", nil)
	if err == nil || err.Error() != noKeyMessage {
		t.Fatalf("err = %v, want %q", err, noKeyMessage)
	}
	api.mu.Lock()
	defer api.mu.Unlock()
	if len(api.requests) != 0 {
		t.Error("a client without a key called the API")
	}
}

func TestNewClientRejectsBadURL(t *testing.T) {
	for _, raw := range []string{"", "chronova.dev/api/v1", "ftp://chronova.dev", "https://", "https://user:hunter2@[::1"} {
		_, err := NewClient(Credentials{Key: testKey, URL: raw, URLSource: SourceEnvURL})
		if err == nil {
			t.Errorf("NewClient(%q) succeeded", raw)
			continue
		}
		if !strings.Contains(err.Error(), SourceEnvURL) || strings.Contains(err.Error(), testKey) {
			t.Errorf("NewClient(%q) error %q: want the source named and no key", raw, err)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 8, 3, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		headers map[string]string
		want    int
	}{
		{"seconds", map[string]string{"Retry-After": "30"}, 30},
		{"http date", map[string]string{"Retry-After": now.Add(90 * time.Second).Format(http.TimeFormat)}, 90},
		{"reset epoch", map[string]string{"X-RateLimit-Reset": jsonInt(now.Unix() + 42)}, 42},
		{"reset rounds up", map[string]string{"X-RateLimit-Reset": "1785758441.2"}, 42},
		{"reset in the past", map[string]string{"X-RateLimit-Reset": jsonInt(now.Unix() - 5)}, 0},
		{"retry-after wins", map[string]string{"Retry-After": "7", "X-RateLimit-Reset": jsonInt(now.Unix() + 42)}, 7},
		{"garbage", map[string]string{"Retry-After": "soon", "X-RateLimit-Reset": "NaN"}, 0},
		{"absurd", map[string]string{"X-RateLimit-Reset": "1e300"}, 0},
		{"none", nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tt.headers {
				h.Set(k, v)
			}
			if got := retryAfter(h, now); got != tt.want {
				t.Errorf("retryAfter = %d, want %d", got, tt.want)
			}
		})
	}
}
