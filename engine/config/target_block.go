package config

import (
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
)

// A Target holds a service's own values for one tool's entry: a
// target "TOOL" { … } block inside the service. Each attribute it sets
// replaces the service's for that tool's entry only (a map whole, never
// merged); what it leaves out is the service's. The hub never sees a
// target: it runs the service as the service block says.
type Target struct {
	Tool    string
	Args    []secret.Value
	Env     map[string]secret.Value
	URL     secret.Value
	Headers map[string]secret.Value
	Timeout time.Duration
	// EnabledTools and DisabledTools are the tool's own allow and deny
	// lists; they take the place of the service's policy for this tool.
	EnabledTools  []string
	DisabledTools []string
	// Extra are keys the tool's provider does not model, written as given.
	Extra provider.Extra
	// Set names the attributes the block sets (those that decoded).
	Set map[string]bool

	DeclRange  hcl.Range
	LabelRange hcl.Range
	// ExtraRange is where extra's value is written.
	ExtraRange hcl.Range
}

// Has reports whether the target sets attr.
func (t *Target) Has(attr string) bool { return t != nil && t.Set[attr] }

// Definition returns d with the target's args, env, url and headers in
// place of its own.
func (t *Target) Definition(d service.Definition) service.Definition {
	if t.Has("args") {
		d.Args = t.Args
	}
	if t.Has("env") {
		d.Env = t.Env
	}
	if t.Has("url") {
		d.URL = t.URL
	}
	if t.Has("headers") {
		d.Headers = t.Headers
	}
	return d
}

// Target returns the target block of the service for tool, or nil.
func (c *Config) Target(service, tool string) *Target {
	for _, t := range c.Targets[service] {
		if t.Tool == tool {
			return t
		}
	}
	return nil
}

// ToolDefinition is how s is started or reached from tool: its definition
// with tool's target applied.
func (c *Config) ToolDefinition(s *service.Service, tool string) service.Definition {
	return c.Target(s.Name, tool).Definition(s.Definition)
}

var targetBlocks = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "target", LabelNames: []string{"tool"}}}}

var targetSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "args"}, {Name: "env"}, {Name: "url"}, {Name: "headers"}, {Name: "timeout"},
		{Name: "enabled_tools"}, {Name: "disabled_tools"}, {Name: "extra"},
	},
}

// decodeTargets decodes the target blocks of a service's body, decoded as
// s (nil: nothing to decode). In a for_each instance they see each.* like
// the rest of the body. Which tools exist is checked with the other
// references (checkReferences); the block structure itself was checked
// when the service's body was.
func decodeTargets(d *decoder, body hcl.Body, s *service.Service) []*Target {
	if s == nil {
		return nil
	}
	content, _, _ := body.PartialContent(targetBlocks)
	if content == nil {
		return nil
	}
	var out []*Target
	seen := map[string]hcl.Range{}
	for _, tb := range content.Blocks {
		if len(tb.Labels) != 1 {
			continue
		}
		tool := tb.Labels[0]
		if first, dup := seen[tool]; dup {
			d.errorf(tb.LabelRanges[0], "Duplicate target", "The service %q already has a target %q at %s; put every value for %s in one block.", s.Name, tool, first, tool)
			continue
		}
		seen[tool] = tb.DefRange
		out = append(out, decodeTarget(d, tb, s))
	}
	return out
}

func decodeTarget(d *decoder, b *hcl.Block, s *service.Service) *Target {
	t := &Target{Tool: b.Labels[0], Set: map[string]bool{}, DeclRange: b.DefRange, LabelRange: b.LabelRanges[0]}
	content, diags := b.Body.Content(targetSchema)
	d.diags = append(d.diags, diags...)
	a := content.Attributes
	set := func(name string, ok bool) {
		if ok {
			t.Set[name] = true
		}
	}
	remote := s.Transport != service.Stdio
	for _, only := range []string{"args", "env"} {
		if a[only] != nil && remote {
			d.errorf(a[only].NameRange, "Attribute only for stdio services", "%q applies to services started with command; %q is reached at a url.", only, s.Name)
			delete(a, only)
		}
	}
	for _, only := range []string{"url", "headers"} {
		if a[only] != nil && !remote {
			d.errorf(a[only].NameRange, "Attribute only for remote services", "%q applies to services reached at a url; %q is started with command, and a target cannot change how a service is reached.", only, s.Name)
			delete(a, only)
		}
	}
	if a["args"] != nil {
		var ok bool
		t.Args, ok = d.secretList(a["args"])
		set("args", ok)
	}
	if a["env"] != nil {
		var ok bool
		t.Env, ok = d.secretMap(a["env"])
		set("env", ok && checkEnvNames(d, a["env"], t.Env))
	}
	if a["url"] != nil {
		var ok bool
		t.URL, ok = d.secretStr(a["url"])
		if ok && urlCredentials(t.URL) {
			ok = d.plainSecret(a["url"], nil, "The url's credentials (a password or a token in its query)")
		}
		checkURL(d, a["url"], t.URL)
		set("url", ok)
	}
	if a["headers"] != nil {
		var ok bool
		t.Headers, ok = d.secretMap(a["headers"])
		set("headers", ok && checkHeaderNames(d, a["headers"], t.Headers))
	}
	if a["timeout"] != nil {
		var ok bool
		t.Timeout, ok = d.duration(a["timeout"])
		set("timeout", ok)
	}
	if a["enabled_tools"] != nil {
		var ok bool
		t.EnabledTools, ok = d.strList(a["enabled_tools"])
		set("enabled_tools", ok)
	}
	if a["disabled_tools"] != nil {
		var ok bool
		t.DisabledTools, ok = d.strList(a["disabled_tools"])
		set("disabled_tools", ok)
	}
	if a["extra"] != nil {
		var ok bool
		t.Extra, ok = d.extra(a["extra"], t.Tool)
		t.ExtraRange = a["extra"].Expr.Range()
		set("extra", ok)
	}
	return t
}

func checkEnvNames(d *decoder, attr *hcl.Attribute, env map[string]secret.Value) bool {
	ok := true
	for k := range env {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			d.errorf(attr.Expr.Range(), "Invalid environment variable name", "%q cannot be an environment variable name.", k)
			ok = false
		}
	}
	return ok
}

func checkHeaderNames(d *decoder, attr *hcl.Attribute, headers map[string]secret.Value) bool {
	ok := true
	for k := range headers {
		if !validHeaderName(k) {
			d.errorf(attr.Expr.Range(), "Invalid header name", "%q is not a valid HTTP header name.", k)
			ok = false
		}
	}
	return ok
}

// extra decodes a target's extra: an object whose values are written into
// the tool's entry as given. A value written as given cannot be a secret:
// a secret() reference in it is an error (chronicle writes a secret only
// where it can use the tool's reference syntax, in env, headers, args and
// url), and so is a plain-text value under a secret-looking key or shaped
// like a credential, as in env.
func (d *decoder) extra(attr *hcl.Attribute, tool string) (provider.Extra, bool) {
	v, ok := d.value(attr, cty.DynamicPseudoType, "object")
	if !ok {
		return nil, false
	}
	if ty := v.Type(); !ty.IsObjectType() && !ty.IsMapType() {
		d.errorf(attr.Expr.Range(), "Invalid extra", "extra must be an object of the keys to write into %s's entry as given, such as extra = { trust = true }; this is a %s.", tool, ty.FriendlyName())
		return nil, false
	}
	out := provider.Extra{}
	ok = true
	for k, ev := range v.AsValueMap() {
		x, good := d.extraValue(attr, cty.GetAttrPath(k), k, ev)
		if k == "" {
			d.errorf(attr.Expr.Range(), "Invalid extra key", "An extra key cannot be empty.")
			good = false
		}
		out[k] = x
		ok = ok && good
	}
	return out, ok
}

// extraValue converts one value of extra, at path under key, to its JSON
// form: strings, whole numbers as int64 and others as float64, bools,
// lists and objects, null.
func (d *decoder) extraValue(attr *hcl.Attribute, path cty.Path, key string, v cty.Value) (any, bool) {
	if secret.ContainsSentinel(key) {
		d.errorf(attr.Expr.Range(), "Secret not allowed here", "A key of extra cannot be a secret() reference.")
		return nil, false
	}
	if v.IsNull() {
		return nil, true
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		s := v.AsString()
		what := fmt.Sprintf("The value of extra %q", key)
		switch {
		case secret.ContainsSentinel(s):
			d.errorf(attr.Expr.Range(), "Secret not allowed in extra",
				"%s holds a secret() reference, but extra is written into the tool's file as given, where the reference would not be resolved. Put the secret in env, headers, args or url, which chronicle writes in the tool's own reference syntax.", what)
			return nil, false
		case s != "" && secret.LooksSecret(key) && !d.plainSecret(attr, path, what):
			return nil, false
		case tokenShaped(secret.Literal(s)) && !d.plainSecret(attr, path, what+" is shaped like a credential and"):
			return nil, false
		}
		return s, true
	case ty == cty.Number:
		bf := v.AsBigFloat()
		if n, acc := bf.Int64(); bf.IsInt() && acc == big.Exact {
			return n, true
		}
		f, _ := bf.Float64()
		return f, true
	case ty == cty.Bool:
		return v.True(), true
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		out := []any{}
		ok := true
		for i, e := range v.AsValueSlice() {
			x, good := d.extraValue(attr, append(path.Copy(), cty.IndexStep{Key: cty.NumberIntVal(int64(i))}), key, e)
			out = append(out, x)
			ok = ok && good
		}
		return out, ok
	case ty.IsMapType() || ty.IsObjectType():
		out := map[string]any{}
		ok := true
		for k, e := range v.AsValueMap() {
			x, good := d.extraValue(attr, append(path.Copy(), cty.GetAttrStep{Name: k}), k, e)
			out[k] = x
			ok = ok && good
		}
		return out, ok
	}
	d.errorf(attr.Expr.Range(), "Invalid extra value", "The value of extra %q is a %s, which has no JSON form.", key, ty.FriendlyName())
	return nil, false
}
