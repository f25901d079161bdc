package task

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestCreatedIsFlat: a 2025-11-25 CreateTaskResult becomes the 2026-07-28
// extension's: flat, resultType "task", the handle for the id, ttlMs and
// pollIntervalMs for ttl and pollInterval (a null ttl stays null: no
// expiry), the upstream's related task out of _meta, the rest of _meta kept.
func TestCreatedIsFlat(t *testing.T) {
	for name, c := range map[string]struct{ in, want string }{
		"everything's research": {
			in: `{"task":{"taskId":"up-1","status":"working","createdAt":"2026-12-06T01:00:00Z","lastUpdatedAt":"2026-12-06T01:00:00Z","ttl":300000,"pollInterval":1000},` +
				`"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"up-1"}}}`,
			want: `{"resultType":"task","taskId":"H","status":"working","createdAt":"2026-12-06T01:00:00Z","lastUpdatedAt":"2026-12-06T01:00:00Z","ttlMs":300000,"pollIntervalMs":1000}`,
		},
		"no expiry, a status message, other _meta": {
			in:   `{"task":{"taskId":"up-2","status":"working","statusMessage":"queued","createdAt":"a","lastUpdatedAt":"b","ttl":null},"_meta":{"x":1}}`,
			want: `{"resultType":"task","taskId":"H","status":"working","statusMessage":"queued","createdAt":"a","lastUpdatedAt":"b","ttlMs":null,"_meta":{"x":1}}`,
		},
	} {
		got, err := Created(json.RawMessage(c.in), "H")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sameJSON(t, name, got, c.want)
	}
	if _, err := Created(json.RawMessage(`{"content":[]}`), "H"); err == nil {
		t.Error("a tool result was taken for a task")
	}
}

// TestDetailedByStatus: a 2025-11-25 tasks/get answer, with what
// tasks/result answered for a task that ended, becomes the 2026-07-28
// DetailedTask: the result inlined (also a tool's isError result, which
// 2025-11-25 may call failed and 2026-07-28 calls completed, without the
// upstream's related task), a JSON-RPC error inlined as error with the task
// failed.
func TestDetailedByStatus(t *testing.T) {
	const common = `"createdAt":"a","lastUpdatedAt":"b","ttl":60000`
	const out = `"createdAt":"a","lastUpdatedAt":"b","ttlMs":60000`
	for name, c := range map[string]struct {
		got, result, failure, want string
	}{
		"working": {
			got:  `{"taskId":"up","status":"working","statusMessage":"Gathering sources...",` + common + `}`,
			want: `{"resultType":"complete","taskId":"H","status":"working","statusMessage":"Gathering sources...",` + out + `}`,
		},
		"completed": {
			got:    `{"taskId":"up","status":"completed",` + common + `}`,
			result: `{"content":[{"type":"text","text":"done"}],"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"up"}}}`,
			want:   `{"resultType":"complete","taskId":"H","status":"completed",` + out + `,"result":{"content":[{"type":"text","text":"done"}]}}`,
		},
		"failed with a tool's error result": {
			got:    `{"taskId":"up","status":"failed",` + common + `}`,
			result: `{"content":[{"type":"text","text":"no"}],"isError":true}`,
			want:   `{"resultType":"complete","taskId":"H","status":"completed",` + out + `,"result":{"content":[{"type":"text","text":"no"}],"isError":true}}`,
		},
		"failed with a JSON-RPC error": {
			got:     `{"taskId":"up","status":"failed","statusMessage":"boom",` + common + `}`,
			failure: `{"code":-32603,"message":"boom"}`,
			want:    `{"resultType":"complete","taskId":"H","status":"failed","statusMessage":"boom",` + out + `,"error":{"code":-32603,"message":"boom"}}`,
		},
		"cancelled": {
			got:  `{"taskId":"up","status":"cancelled",` + common + `}`,
			want: `{"resultType":"complete","taskId":"H","status":"cancelled",` + out + `}`,
		},
		"input required": {
			got:  `{"taskId":"up","status":"input_required","statusMessage":"Requesting clarification...",` + common + `}`,
			want: `{"resultType":"complete","taskId":"H","status":"input_required","statusMessage":"Requesting clarification...",` + out + `,"inputRequests":{}}`,
		},
	} {
		var result, failure json.RawMessage
		if c.result != "" {
			result = json.RawMessage(c.result)
		}
		if c.failure != "" {
			failure = json.RawMessage(c.failure)
		}
		got, err := detailed(json.RawMessage(c.got), "H", result, failure)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sameJSON(t, name, got, c.want)
	}
}

func sameJSON(t *testing.T, name string, got json.RawMessage, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%s: %s: %v", name, got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%s: the wanted %s: %v", name, want, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s:\n got %s\nwant %s", name, got, want)
	}
}
