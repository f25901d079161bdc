package jsontool

import (
	"fmt"
	"sort"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/providers/refsyntax"
)

// An Encoder writes model values in one tool's syntax. The first value the
// tool cannot express is remembered and reported by Err.
type Encoder struct {
	syntax refsyntax.Syntax
	put    bool // encoding for Edit rather than Render
	err    error
}

// Value renders v in the tool's reference syntax for field ("args",
// "env.KEY", "headers.KEY", "url"): the part before the first dot is the
// entry's field, which decides whether the tool expands references there.
func (c *Encoder) Value(field string, v secret.Value) string {
	top, _, _ := strings.Cut(field, ".")
	s, err := c.syntax.In(top).Render(v)
	if err != nil {
		c.fail(fmt.Errorf("%s: %w", field, err))
	}
	return s
}

// Values renders each value of a list.
func (c *Encoder) Values(field string, vs []secret.Value) []string {
	out := make([]string, 0, len(vs))
	for _, v := range vs {
		out = append(out, c.Value(field, v))
	}
	return out
}

// Map renders a map as an object with sorted keys.
func (c *Encoder) Map(field string, m map[string]secret.Value) Object {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var o Object
	for _, k := range keys {
		o.Add(k, c.Value(field+"."+k, m[k]))
	}
	return o
}

// Refuse records an error when the entry sets something the tool cannot
// express.
func (c *Encoder) Refuse(set bool, what string) {
	if set {
		c.fail(fmt.Errorf("%s cannot express %s in its config", c.syntax.Tool, what))
	}
}

// RefuseUnlisted refuses Cwd, tool lists and a disabled state, the parts of
// an entry that only some tools keep in the entry itself. A disabled state
// is refused by Edit only: Render shows what the entry stores, and where the
// tool keeps the switch outside the entry (Claude, Gemini) an entry read
// back as disabled must still render.
func (c *Encoder) RefuseUnlisted(e provider.Entry, cwd, lists, disabled bool) {
	c.Refuse(!cwd && e.Cwd != "", "a working directory (cwd)")
	c.Refuse(!lists && (e.EnabledTools != nil || e.DisabledTools != nil), "tool allow or deny lists")
	c.Refuse(c.put && !disabled && !e.Enabled, "a disabled server in the entry")
}

// Stdio adds command, args and the environment (under envKey) of a stdio
// entry; empty args and env are left out.
func (c *Encoder) Stdio(o *Object, e provider.Entry, envKey string) {
	o.Add("command", e.Command)
	if len(e.Args) > 0 {
		o.Add("args", c.Values("args", e.Args))
	}
	if len(e.Env) > 0 {
		o.Add(envKey, c.Map(envKey, e.Env))
	}
}

// Remote adds the URL (under urlKey) and headers of a remote entry.
func (c *Encoder) Remote(o *Object, e provider.Entry, urlKey string) {
	o.Add(urlKey, c.Value(urlKey, e.URL))
	if len(e.Headers) > 0 {
		o.Add("headers", c.Map("headers", e.Headers))
	}
}

// Err returns the first thing the tool could not express.
func (c *Encoder) Err() error { return c.err }

func (c *Encoder) fail(err error) {
	if c.err == nil {
		c.err = err
	}
}
