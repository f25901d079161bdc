package task

import (
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
)

// WithHandle returns an upstream's answer about one task, in the
// session-era shape a session-era client reads, with the hub's handle in
// place of the upstream's task id: the task's own taskId (at the top, as
// tasks/get answers, or in task, as a CreateTaskResult has it) and the
// related task in _meta (tasks/result).
func WithHandle(raw json.RawMessage, handle string) (json.RawMessage, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, err
	}
	h, _ := json.Marshal(handle)
	if _, ok := top["taskId"]; ok {
		top["taskId"] = h
	}
	for _, key := range []string{"task", "_meta"} {
		obj, ok := top[key]
		if !ok {
			continue
		}
		var inner map[string]json.RawMessage
		if json.Unmarshal(obj, &inner) != nil {
			continue
		}
		if key == "task" {
			if _, ok := inner["taskId"]; ok {
				inner["taskId"] = h
			}
		} else if rel, ok := inner[mcp.RelatedTaskMetaKey]; ok {
			var r map[string]json.RawMessage
			if json.Unmarshal(rel, &r) == nil {
				r["taskId"] = h
				inner[mcp.RelatedTaskMetaKey], _ = json.Marshal(r)
			}
		}
		top[key], _ = json.Marshal(inner)
	}
	return json.Marshal(top)
}
