package hub

import (
	"context"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/hub/catalog"
	"github.com/chronicle-dev/chronicle/internal/waitfor"
)

// A gate holds back an upstream that connects to it until the test opens it.
type gate struct {
	ln    net.Listener
	conns chan net.Conn
}

func newGate(t *testing.T) *gate {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := &gate{ln: ln, conns: make(chan net.Conn, 8)}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			g.conns <- c
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return g
}

// open lets the next upstream waiting at the gate go on.
func (g *gate) open(t *testing.T) {
	t.Helper()
	c := waitfor.Receive(t, g.conns, "an upstream at the gate")
	if _, err := c.Write([]byte{1}); err != nil {
		t.Fatal(err)
	}
	c.Close()
}

func gatedService(name string, g *gate) service.Service {
	s := testService(name, name, "")
	s.Env[gateEnv] = secret.Literal(g.ln.Addr().String())
	return s
}

// testGrace lets a test's first list wait for every upstream however loaded
// the machine is: the grace period is an upper bound, never a delay, and
// its own behaviour is tested with upstreams held at a gate.
const testGrace = time.Minute

func newTestHub(t *testing.T, path string, opts Options) *Hub {
	t.Helper()
	opts.StatePath, opts.Home, opts.Version = path, t.TempDir(), "test"
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	h, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestSlowUpstreamDelaysOnlyItself: the first list answers after the grace
// period with what arrived; the slow upstream's tools come later, and a
// caller that went away cancelled nothing.
func TestSlowUpstreamDelaysOnlyItself(t *testing.T) {
	g := newGate(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	writeState(t, path, []service.Service{testService("fast", "fast", ""), gatedService("slow", g)}, nil)
	h := newTestHub(t, path, Options{ListGrace: 200 * time.Millisecond})
	defer h.Close()

	// A caller that gives up at once leaves the listings running.
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	h.lister.Catalog(gone)

	// The first list answers although the slow upstream never does.
	h.lister.Catalog(context.Background())
	c := waitCatalog(t, h, func(c *catalog.Catalog) bool { return c.Tools["fast__echo"] != nil })
	if c.Tools["slow__echo"] != nil || c.Errors["slow"] != "" {
		t.Fatalf("the slow upstream is listed before it answered: %v %v", keys(c.Tools), c.Errors)
	}

	g.open(t)
	c = waitCatalog(t, h, func(c *catalog.Catalog) bool { return c.Tools["slow__echo"] != nil })
	if e := c.Errors["slow"]; e != "" {
		t.Errorf("the slow upstream's listing kept an error: %s", e)
	}
}

// waitCatalog waits, on the hub's rebuilds, until the catalogue meets
// cond, for hangGuard at most.
func waitCatalog(t *testing.T, h *Hub, cond func(*catalog.Catalog) bool) *catalog.Catalog {
	t.Helper()
	guard := time.After(hangGuard)
	for {
		changed := h.lister.Changed()
		c := h.lister.Built()
		if c != nil && cond(c) {
			return c
		}
		select {
		case <-changed:
		case <-guard:
			var tools []string
			if c != nil {
				tools = keys(c.Tools)
			}
			t.Fatalf("the catalogue did not get what the test waits for within %s; it has %v", hangGuard, tools)
			return nil
		}
	}
}

// TestCloseLeavesNoGoroutine closes a hub while an upstream is stuck in
// its handshake: every goroutine the hub started ends with Close.
func TestCloseLeavesNoGoroutine(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	g := newGate(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	writeState(t, path, []service.Service{testService("fast", "fast", ""), gatedService("stuck", g)}, nil)
	defer g.ln.Close()
	h := newTestHub(t, path, Options{ListGrace: 100 * time.Millisecond})
	defer h.Close()
	h.lister.Catalog(context.Background())
	waitCatalog(t, h, func(c *catalog.Catalog) bool { return c.Tools["fast__echo"] != nil })
	waitfor.Receive(t, g.conns, "the stuck upstream at the gate") // waiting there, never opened
	h.lister.Invalidate("test")
}
