package opencode

import (
	"encoding/json"
	"time"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/jsontool"
	"github.com/chronicle-dev/chronicle/providers/refsyntax"
)

// v2 is OpenCode 2's layout (opencode.ai/v2/docs/mcp-servers): the same
// entry under "mcp.servers", switched off by "disabled" (OpenCode 2 has no
// "enabled"), and "timeout" an object whose "request" is chronicle's
// timeout; its "startup" is the user's and kept.
func v2() *jsontool.Tool {
	return &jsontool.Tool{
		Syntax:     refsyntax.OpenCode,
		Locate:     locations,
		Skills:     skills,
		Decode:     decodeV2,
		Encode:     encodeV2,
		Owned:      []string{"type", "command", "environment", "cwd", "url", "headers", "disabled", "timeout"},
		Reads:      []string{"enabled"}, // OpenCode 1's switch, kept where it is
		Attributes: map[string]string{"environment": "env", "disabled": "enabled"},
		Defaults:   map[string]string{"environment": `{}`, "headers": `{}`, "disabled": `false`},
		Places:     places,
	}
}

func decodeV2(f *jsontool.Fields, e *provider.Entry) {
	if off, set := f.Bool("disabled"); set {
		e.Enabled = !off
	}
	if _, number := f.Raw("timeout").(json.Number); number {
		e.Timeout = f.Duration("timeout", time.Millisecond) // OpenCode 1's form, converted by OpenCode 2
	} else if t := f.Object("timeout"); t != nil {
		e.Timeout = t.Duration("request", time.Millisecond)
	}
	decodeShared(f, e)
}

func encodeV2(e provider.Entry, old *jsontool.Fields, c *jsontool.Encoder) jsontool.Object {
	o := encodeShared(e, c)
	if !e.Enabled {
		o.Add("disabled", true)
	}
	var t jsontool.Object
	if old != nil {
		if prev, ok := old.Raw("timeout").(map[string]any); ok && prev["startup"] != nil {
			t.Add("startup", prev["startup"])
		}
	}
	if e.Timeout > 0 {
		t.Add("request", e.Timeout.Milliseconds())
	}
	if len(t) > 0 {
		o.Add("timeout", t)
	}
	return o
}
