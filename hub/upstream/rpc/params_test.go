package rpc

import (
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestWithMeta: the revision's members are added to the params' own _meta,
// which keeps its members.
func TestWithMeta(t *testing.T) {
	b, err := WithMeta(map[string]any{"name": "x", "_meta": map[string]any{"progressToken": 7}}, map[string]any{"k": "v"})
	if err != nil || string(b) != `{"_meta":{"k":"v","progressToken":7},"name":"x"}` {
		t.Errorf("WithMeta: %s, %v", b, err)
	}
	if b, err := WithMeta(nil, map[string]any{"k": 1}); err != nil || string(b) != `{"_meta":{"k":1}}` {
		t.Errorf("WithMeta of no params: %s, %v", b, err)
	}
	if _, err := WithMeta([]int{1}, nil); err == nil {
		t.Error("WithMeta of an array: no error")
	}
	if _, err := WithMeta(map[string]any{"_meta": 3}, nil); err == nil {
		t.Error("WithMeta of a _meta that is no object: no error")
	}
}

// TestWithMember: a member is set beside the params' own.
func TestWithMember(t *testing.T) {
	b, err := WithMember(map[string]any{"name": "x"}, "task", map[string]any{"ttl": 5})
	if err != nil || string(b) != `{"name":"x","task":{"ttl":5}}` {
		t.Errorf("WithMember: %s, %v", b, err)
	}
	if _, err := WithMember("text", "task", 1); err == nil {
		t.Error("WithMember of a string: no error")
	}
}

// TestWithoutRelatedTask: the upstream's task handle leaves a result's
// _meta, and the other members stay.
func TestWithoutRelatedTask(t *testing.T) {
	in := json.RawMessage(`{"content":[],"_meta":{"` + mcp.RelatedTaskMetaKey + `":{"taskId":"t1"},"k":1}}`)
	if got := string(WithoutRelatedTask(in)); got != `{"_meta":{"k":1},"content":[]}` {
		t.Errorf("WithoutRelatedTask: %s", got)
	}
	only := json.RawMessage(`{"content":[],"_meta":{"` + mcp.RelatedTaskMetaKey + `":{"taskId":"t1"}}}`)
	if got := string(WithoutRelatedTask(only)); got != `{"content":[]}` {
		t.Errorf("WithoutRelatedTask of the only member: %s", got)
	}
	plain := json.RawMessage(`{"content":[]}`)
	if got := string(WithoutRelatedTask(plain)); got != string(plain) {
		t.Errorf("WithoutRelatedTask changed a result without one: %s", got)
	}
}

// TestWithoutTasks: the tasks extension leaves a client's extensions, the
// others stay, and none left is none.
func TestWithoutTasks(t *testing.T) {
	got := WithoutTasks(map[string]any{TasksExtension: 1, "example.com/x": 2})
	if _, ok := got[TasksExtension]; ok || got["example.com/x"] != 2 {
		t.Errorf("WithoutTasks: %v", got)
	}
	if got := WithoutTasks(map[string]any{TasksExtension: 1}); got != nil {
		t.Errorf("WithoutTasks of the tasks extension alone: %v", got)
	}
}

// TestProgressToken reads a request's progress token, or nil.
func TestProgressToken(t *testing.T) {
	if got := ProgressToken(json.RawMessage(`{"_meta":{"progressToken":"p1"}}`)); got != "p1" {
		t.Errorf("ProgressToken: %v", got)
	}
	if got := ProgressToken(json.RawMessage(`{}`)); got != nil {
		t.Errorf("ProgressToken of none: %v", got)
	}
}
