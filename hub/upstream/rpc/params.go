package rpc

import (
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
)

// WithMeta returns params encoded with meta's members added to its _meta
// (the request's own members, such as a progress token, are kept).
func WithMeta(params any, meta map[string]any) (json.RawMessage, error) {
	obj, err := paramsObject(params)
	if err != nil {
		return nil, err
	}
	m := map[string]json.RawMessage{}
	if raw, ok := obj["_meta"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, fmt.Errorf("_meta is not an object: %w", err)
		}
	}
	for k, v := range meta {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		m[k] = b
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	obj["_meta"] = b
	return json.Marshal(obj)
}

// WithMember returns params encoded with key set to value (params' other
// members kept as they are).
func WithMember(params any, key string, value any) (json.RawMessage, error) {
	obj, err := paramsObject(params)
	if err != nil {
		return nil, err
	}
	v, err := json.Marshal(value)
	if err != nil {
		return nil, err
	}
	obj[key] = v
	return json.Marshal(obj)
}

// paramsObject returns a request's params as an object's members, to be
// changed and encoded again: none for nil or null, an error for anything
// but an object.
func paramsObject(params any) (map[string]json.RawMessage, error) {
	obj := map[string]json.RawMessage{}
	if params == nil {
		return obj, nil
	}
	b, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	if string(b) != "null" {
		if err := json.Unmarshal(b, &obj); err != nil {
			return nil, fmt.Errorf("the params are not an object: %w", err)
		}
	}
	return obj, nil
}

// ProgressToken returns the progress token in a request's _meta, or nil.
func ProgressToken(body json.RawMessage) any {
	var p struct {
		Meta struct {
			ProgressToken any `json:"progressToken"`
		} `json:"_meta"`
	}
	_ = json.Unmarshal(body, &p)
	return p.Meta.ProgressToken
}

// WithoutRelatedTask drops the upstream's task from a result's _meta
// (io.modelcontextprotocol/related-task): the handle is the upstream's, and
// the hub's client made no task.
func WithoutRelatedTask(raw json.RawMessage) json.RawMessage {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return raw
	}
	var meta map[string]json.RawMessage
	if json.Unmarshal(obj["_meta"], &meta) != nil {
		return raw
	}
	if _, ok := meta[mcp.RelatedTaskMetaKey]; !ok {
		return raw
	}
	delete(meta, mcp.RelatedTaskMetaKey)
	if len(meta) == 0 {
		delete(obj, "_meta")
	} else if b, err := json.Marshal(meta); err == nil {
		obj["_meta"] = b
	}
	out, err := json.Marshal(obj)
	if err != nil {
		return raw
	}
	return out
}

// TasksExtension is the 2026-07-28 revision's tasks extension (SEP-2663).
const TasksExtension = "io.modelcontextprotocol/tasks"

// WithoutTasks returns a client's extensions less the tasks extension: the
// hub does not pass tasks through to its clients (decision 0210), so an
// upstream must not answer a call of theirs with a task they could not
// reach through the hub; it runs the call synchronously instead, as it
// does for a client that did not declare the extension.
func WithoutTasks(ext map[string]any) map[string]any {
	if _, ok := ext[TasksExtension]; !ok {
		return ext
	}
	out := make(map[string]any, len(ext)-1)
	for k, v := range ext {
		if k != TasksExtension {
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// NameOf returns the name a request's encoded params name (a tool's, a
// prompt's), "" if none.
func NameOf(params json.RawMessage) string {
	var named struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(params, &named)
	return named.Name
}
