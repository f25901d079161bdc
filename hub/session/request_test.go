package session

import (
	"context"
	"testing"
)

// Each value a transport sets stays when another is set after it, and a
// context without them says so.
func TestRequestValues(t *testing.T) {
	bg := context.Background()
	if _, ok := EndpointOf(bg); ok {
		t.Error("EndpointOf(a bare context) reports an endpoint")
	}
	if _, ok := CallingOf(bg); ok {
		t.Error("CallingOf(a bare context) reports a tool")
	}
	if RootOf(bg) != "" || ReplyOf(bg) != nil || StreamOf(bg) != nil {
		t.Error("a bare context carries a root, a reply or a stream")
	}
	ep := Endpoint{Path: "/mcp/service/github", Root: "/w"}
	rep := new(Reply)
	ctx := WithEndpoint(bg, ep)
	ctx = WithRoot(ctx, "/w")
	ctx = WithCalling(ctx, "github__search")
	ctx = WithReply(ctx, rep)
	if got, ok := EndpointOf(ctx); !ok || got != ep {
		t.Errorf("EndpointOf = %+v, %v; want %+v", got, ok, ep)
	}
	if got, ok := CallingOf(ctx); !ok || got != "github__search" {
		t.Errorf("CallingOf = %q, %v", got, ok)
	}
	if RootOf(ctx) != "/w" || ReplyOf(ctx) != rep {
		t.Errorf("RootOf = %q, ReplyOf = %p; want /w, %p", RootOf(ctx), ReplyOf(ctx), rep)
	}
	// A value set again under a derived context leaves the parent's.
	inner := WithCalling(ctx, "other")
	if got, _ := CallingOf(inner); got != "other" {
		t.Errorf("CallingOf(inner) = %q, want other", got)
	}
	if got, _ := CallingOf(ctx); got != "github__search" {
		t.Errorf("CallingOf(parent) = %q after a child set its own", got)
	}
	// An empty tool name is still a call's.
	if got, ok := CallingOf(WithCalling(bg, "")); !ok || got != "" {
		t.Errorf("CallingOf(WithCalling(\"\")) = %q, %v; want \"\", true", got, ok)
	}
}

// Carry puts what the transport set into mcp-go's context: from's values
// replace to's, and what from does not say, to keeps.
func TestCarry(t *testing.T) {
	bg := context.Background()
	if got := Carry(bg, bg); got != bg {
		t.Error("Carry of a context without values changed the target")
	}
	fromRep, toRep := new(Reply), new(Reply)
	from := WithCalling(WithEndpoint(bg, Endpoint{Path: "/mcp"}), "a__b")
	from = WithReply(from, fromRep)
	to := WithRoot(WithReply(WithEndpoint(bg, Endpoint{Path: "/sse"}), toRep), "/kept")
	got := Carry(to, from)
	if ep, _ := EndpointOf(got); ep.Path != "/mcp" {
		t.Errorf("carried endpoint %q, want from's /mcp", ep.Path)
	}
	if n, ok := CallingOf(got); !ok || n != "a__b" {
		t.Errorf("carried calling %q, %v", n, ok)
	}
	if ReplyOf(got) != fromRep {
		t.Error("the carried reply is not from's")
	}
	if RootOf(got) != "/kept" {
		t.Errorf("RootOf = %q, want to's /kept (from names none)", RootOf(got))
	}
	if ep, _ := EndpointOf(to); ep.Path != "/sse" {
		t.Error("Carry changed to's own values")
	}
	if c := Carry(bg, from); ReplyOf(c) != fromRep {
		t.Error("Carry into a context without values lost from's reply")
	}
}
