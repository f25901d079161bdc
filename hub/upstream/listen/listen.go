package listen

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/chronicle-dev/chronicle/hub/upstream/rpc"
	"github.com/mark3labs/mcp-go/mcp"
)

const (
	// retryDelay is the wait before a dropped stream is opened again.
	retryDelay = time.Second
	// steady is how long a stream must have lasted for its end to count
	// as a drop rather than a refusal.
	steady = 30 * time.Second
	// maxRefusals is how many streams in a row may end within steady
	// before Hold gives up: an upstream that ends every stream at once is
	// not asked again and again.
	maxRefusals = 3
)

// Filter asks for the list kinds whose changes caps declares it announces.
func Filter(caps mcp.ServerCapabilities) mcp.SubscriptionFilter {
	return mcp.SubscriptionFilter{
		ToolsListChanged:     caps.Tools != nil && caps.Tools.ListChanged,
		PromptsListChanged:   caps.Prompts != nil && caps.Prompts.ListChanged,
		ResourcesListChanged: caps.Resources != nil && caps.Resources.ListChanged,
	}
}

// A Stream is the listen stream to one upstream's Streamable HTTP endpoint.
type Stream struct {
	URL    string
	Header map[string]string // the service's own headers
	Filter mcp.SubscriptionFilter
	Meta   map[string]any // the request's _meta (the revision's required members)
	// Notify receives each notification the stream carries.
	Notify func(mcp.JSONRPCNotification)
	Logger *slog.Logger
	// Mask hides secrets in what is logged (an error may name the URL).
	Mask func(string) string
	// Client makes the request; nil is http.DefaultClient.
	Client *http.Client
}

// Hold keeps one subscriptions/listen stream open until ctx ends. A
// stream that ends while ctx lasts is opened again after retryDelay;
// after maxRefusals streams in a row that each ended within steady, Hold
// logs that it gave up and returns. An empty filter opens nothing.
func (s Stream) Hold(ctx context.Context) {
	if s.Filter.IsEmpty() {
		return
	}
	refusals := 0
	for {
		opened := time.Now()
		err := s.open(ctx)
		if ctx.Err() != nil {
			return
		}
		ended := "the stream ended"
		if err != nil {
			ended = s.Mask(err.Error())
		}
		if time.Since(opened) >= steady {
			refusals = 0
		}
		if refusals++; refusals > maxRefusals {
			s.Logger.Warn("the upstream's listen stream ended too often; its list changes are no longer heard", "error", ended)
			return
		}
		s.Logger.Debug("the upstream's listen stream ended; opening it again", "error", ended)
		t := time.NewTimer(retryDelay)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// open sends one listen request and delivers what its answer carries
// until it ends. The revision answers with an event stream; a stream of
// JSON values (the reference server's) is read as well.
func (s Stream) open(ctx context.Context) error {
	body, err := json.Marshal(rpc.NewModernRequest(string(mcp.MethodSubscriptionsListen),
		map[string]any{"notifications": s.Filter, "_meta": s.Meta}))
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	for k, v := range s.Header {
		req.Header.Set(k, v)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", mcp.ProtocolVersion20260728)
	req.Header.Set(rpc.MethodHeader, string(mcp.MethodSubscriptionsListen))
	c := s.Client
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("subscriptions/listen: HTTP %s", resp.Status)
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt == "text/event-stream" {
		return s.events(resp.Body)
	}
	dec := json.NewDecoder(resp.Body)
	for {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		s.deliver(raw)
	}
}

// events reads an event stream: each event's data lines make one message.
func (s Stream) events(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 4<<20)
	var data strings.Builder
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if data.Len() > 0 {
				s.deliver(json.RawMessage(data.String()))
				data.Reset()
			}
		case strings.HasPrefix(line, "data:"):
			if data.Len() > 0 {
				data.WriteByte('\n')
			}
			data.WriteString(strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		}
	}
	return sc.Err()
}

// deliver passes on a notification; the answer that ends the stream, and
// anything that is not JSON-RPC, is dropped.
func (s Stream) deliver(raw json.RawMessage) {
	var id struct {
		ID *json.RawMessage `json:"id"`
	}
	var n mcp.JSONRPCNotification
	if json.Unmarshal(raw, &id) != nil || id.ID != nil || json.Unmarshal(raw, &n) != nil || n.Method == "" {
		return
	}
	s.Notify(n)
}
