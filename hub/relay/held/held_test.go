package held

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/hub/seal"
	"github.com/chronicle-dev/chronicle/internal/waitfor"
	"github.com/mark3labs/mcp-go/mcp"
)

// hangGuard bounds every wait: it only turns a lost event into a failure.
const hangGuard = time.Minute

// A round as the client sees it.
type round struct {
	ResultType    string                     `json:"resultType"`
	InputRequests map[string]json.RawMessage `json:"inputRequests"`
	RequestState  string                     `json:"requestState"`
}

func decode(t *testing.T, raw json.RawMessage) round {
	t.Helper()
	var r round
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

const aQuestion = `{"method":"elicitation/create","params":{"message":"name?"}}`

// asking starts a call whose upstream asks n questions in turn and answers
// with the last answer; ended receives the cause its context ended with.
func asking(cs *Calls, n int, bound time.Duration) (*Call, <-chan error) {
	ended := make(chan error, 1)
	c := cs.Start(context.Background(), func() string { return "client-a" }, bound, func(ctx context.Context, c *Call) (json.RawMessage, error) {
		var last json.RawMessage
		for range n {
			a, err := c.Ask(ctx, json.RawMessage(aQuestion))
			if err != nil {
				<-ctx.Done()
				ended <- context.Cause(ctx)
				return nil, err
			}
			last = a
		}
		return last, nil
	})
	return c, ended
}

func TestHeldCallRounds(t *testing.T) {
	cs := New(seal.Random())
	c, _ := asking(cs, 2, hangGuard)
	ctx := context.Background()
	raw, err := c.Wait(ctx)
	r := decode(t, raw)
	if err != nil || r.ResultType != "input_required" || string(r.InputRequests["chronicle-1"]) != aQuestion || r.RequestState == "" {
		t.Fatalf("first round: %s, %v", raw, err)
	}
	// A retry that answers nothing is asked the same again, under a new state.
	if _, err := cs.Resume(r.RequestState, "client-a", nil, nil); err != nil {
		t.Fatal(err)
	}
	raw, _ = c.Wait(ctx)
	again := decode(t, raw)
	if _, ok := again.InputRequests["chronicle-1"]; !ok || again.RequestState == r.RequestState {
		t.Fatalf("a retry without the answer: %s", raw)
	}
	if _, err := cs.Resume(r.RequestState, "client-a", nil, nil); !errors.Is(err, ErrState) {
		t.Errorf("a state used before resumed the call: %v", err)
	}
	befores := 0
	if _, err := cs.Resume(again.RequestState, "client-a", map[string]json.RawMessage{"chronicle-1": json.RawMessage(`{"action":"decline"}`)}, func(*Call) { befores++ }); err != nil || befores != 1 {
		t.Fatalf("the resume: %v; its before ran %d times, want once", err, befores)
	}
	raw, _ = c.Wait(ctx)
	second := decode(t, raw)
	if _, ok := second.InputRequests["chronicle-2"]; !ok || len(second.InputRequests) != 1 {
		t.Fatalf("the upstream's next question: %s", raw)
	}
	if _, err := cs.Resume(second.RequestState, "client-a", map[string]json.RawMessage{"chronicle-2": json.RawMessage(`{"action":"accept"}`)}, nil); err != nil {
		t.Fatal(err)
	}
	if raw, err := c.Wait(ctx); err != nil || string(raw) != `{"action":"accept"}` {
		t.Errorf("the result: %s, %v", raw, err)
	}
	if n := cs.Held(); n != 0 {
		t.Errorf("%d calls held after the result", n)
	}
}

func TestHeldStateRefused(t *testing.T) {
	cs := New(seal.Random())
	c, _ := asking(cs, 1, hangGuard)
	raw, _ := c.Wait(context.Background())
	state := decode(t, raw).RequestState
	b := []byte(state)
	b[3] ^= 1
	other := New(seal.Random())
	oc, _ := asking(other, 1, hangGuard)
	oraw, _ := oc.Wait(context.Background())
	for name, try := range map[string]func() error{
		"altered":        func() error { _, err := cs.Resume(string(b), "client-a", nil, nil); return err },
		"another client": func() error { _, err := cs.Resume(state, "client-b", nil, nil); return err },
		"another hub's":  func() error { _, err := cs.Resume(decode(t, oraw).RequestState, "client-a", nil, nil); return err },
		"not a state":    func() error { _, err := cs.Resume("env=prod", "client-a", nil, nil); return err },
		"sealed, no call": func() error {
			_, err := cs.Resume(cs.sealer.Seal([]byte(`{"c":"x","n":"y"}`)), "client-a", nil, nil)
			return err
		},
	} {
		if err := try(); !errors.Is(err, ErrState) {
			t.Errorf("%s: %v, want ErrState", name, err)
		}
	}
	// None of them spent the state.
	if _, err := cs.Resume(state, "client-a", map[string]json.RawMessage{"chronicle-1": json.RawMessage(`{}`)}, nil); err != nil {
		t.Errorf("the client's own retry after the refusals: %v", err)
	}
}

// A call nobody resumes is cancelled once its bound passes, and its
// question is answered with an error; its state no longer resumes it.
func TestHeldCallNotResumed(t *testing.T) {
	cs := New(seal.Random())
	c, ended := asking(cs, 1, time.Millisecond)
	raw, _ := c.Wait(context.Background())
	if why := waitfor.Receive(t, ended, "the call's end"); why == nil || !strings.Contains(why.Error(), "did not come back with its answer within 1ms") {
		t.Errorf("the call ended with %v", why)
	}
	if n := cs.Held(); n != 0 {
		t.Errorf("%d calls held after the bound", n)
	}
	if _, err := cs.Resume(decode(t, raw).RequestState, "client-a", nil, nil); !errors.Is(err, ErrState) {
		t.Errorf("the state of a call that ended: %v", err)
	}
}

// A client that gives up on a round cancels the call; so does Close.
func TestHeldCallCancelled(t *testing.T) {
	cs := New(seal.Random())
	started := make(chan struct{})
	ended := make(chan error, 1)
	c := cs.Start(context.Background(), func() string { return "" }, hangGuard, func(ctx context.Context, _ *Call) (json.RawMessage, error) {
		close(started)
		<-ctx.Done()
		ended <- context.Cause(ctx)
		return nil, ctx.Err()
	})
	waitfor.Receive(t, started, "the upstream request")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Wait(ctx); err == nil {
		t.Error("a round whose client left has a result")
	}
	if why := waitfor.Receive(t, ended, "the call's end"); !errors.Is(why, errClientGone) {
		t.Errorf("cancelled with %v", why)
	}

	c2, ended2 := asking(cs, 1, hangGuard)
	_, _ = c2.Wait(context.Background())
	cs.Close()
	if why := waitfor.Receive(t, ended2, "the call's end at Close"); !errors.Is(why, errClosed) {
		t.Errorf("closed with %v", why)
	}
}

func TestRequest(t *testing.T) {
	for _, c := range []struct{ method, params, want string }{
		{"elicitation/create", `{"message":"m","requestedSchema":{"type":"object"},"_meta":{"progressToken":1},"task":{"ttl":5}}`,
			`{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object"}}}`},
		{"elicitation/create", `{"mode":"url","message":"m","url":"https://x","elicitationId":"e1"}`,
			`{"method":"elicitation/create","params":{"message":"m","mode":"url","url":"https://x"}}`},
		{"sampling/createMessage", `{"messages":[],"maxTokens":5}`, `{"method":"sampling/createMessage","params":{"maxTokens":5,"messages":[]}}`},
		{"roots/list", `{"_meta":{}}`, `{"method":"roots/list"}`},
		{"roots/list", ``, `{"method":"roots/list"}`},
	} {
		got, err := Request(c.method, json.RawMessage(c.params))
		if err != nil || string(got) != c.want {
			t.Errorf("%s %s: %s, %v; want %s", c.method, c.params, got, err, c.want)
		}
	}
}

func TestDeclared(t *testing.T) {
	var caps struct{ none, form, url, empty, sampling, tools, roots mcp.ClientCapabilities }
	decode := func(s string, into *mcp.ClientCapabilities) {
		if err := json.Unmarshal([]byte(s), into); err != nil {
			t.Fatal(err)
		}
	}
	decode(`{}`, &caps.none)
	decode(`{"elicitation":{"form":{}}}`, &caps.form)
	decode(`{"elicitation":{"url":{}}}`, &caps.url)
	decode(`{"elicitation":{}}`, &caps.empty)
	decode(`{"sampling":{}}`, &caps.sampling)
	decode(`{"sampling":{"tools":{}}}`, &caps.tools)
	decode(`{"roots":{}}`, &caps.roots)
	for _, c := range []struct {
		caps           *mcp.ClientCapabilities
		method, params string
		want           bool
	}{
		{nil, "elicitation/create", `{}`, false},
		{&caps.none, "elicitation/create", `{}`, false},
		{&caps.form, "elicitation/create", `{"message":"m"}`, true},
		{&caps.empty, "elicitation/create", `{"message":"m"}`, true},
		{&caps.url, "elicitation/create", `{"message":"m"}`, false},
		{&caps.url, "elicitation/create", `{"mode":"url"}`, true},
		{&caps.form, "elicitation/create", `{"mode":"url"}`, false},
		{&caps.form, "sampling/createMessage", `{}`, false},
		{&caps.sampling, "sampling/createMessage", `{"maxTokens":1}`, true},
		{&caps.sampling, "sampling/createMessage", `{"tools":[{"name":"x"}]}`, false},
		{&caps.tools, "sampling/createMessage", `{"tools":[{"name":"x"}]}`, true},
		{&caps.none, "roots/list", ``, false},
		{&caps.roots, "roots/list", ``, true},
	} {
		if got := Declared(c.caps, c.method, json.RawMessage(c.params)); got != c.want {
			t.Errorf("%s %s with %+v: %v, want %v", c.method, c.params, c.caps, got, c.want)
		}
	}
}
