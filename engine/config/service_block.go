package config

import (
	"net/url"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/chronicle-dev/chronicle/engine/cores"
	"github.com/chronicle-dev/chronicle/engine/names"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
)

var serviceSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "command"}, {Name: "args"}, {Name: "env"}, {Name: "cwd"},
		{Name: "url"}, {Name: "headers"}, {Name: "transport"}, {Name: "timeout"},
		{Name: "project"}, {Name: "enabled"}, {Name: "description"}, {Name: "origin"},
		{Name: "inherit_env"}, {Name: "sessions"}, {Name: "allow_sampling"}, {Name: "allow_elicitation"},
	},
	Blocks: append([]hcl.BlockHeaderSchema{oauthBlock}, targetBlocks.Blocks...),
}

// decodeServices decodes the service instances on every core — at
// thousands of services the larger part of decoding — and adds them in
// order, each with its target blocks.
func (l *loader) decodeServices(insts []instance) {
	services := make([]*service.Service, len(insts))
	targets := make([][]*Target, len(insts))
	decoders := make([]*decoder, len(insts))
	cores.Each(len(insts), func(i int) {
		decoders[i] = l.decoderFor(insts[i])
		services[i] = decodeService(decoders[i], insts[i])
		targets[i] = decodeTargets(decoders[i], insts[i].body, services[i])
	})
	for i, in := range insts {
		if s := services[i]; s != nil {
			l.cfg.ServiceRanges[s.Name] = in.block.DefRange
			l.cfg.Services = append(l.cfg.Services, s)
			if len(targets[i]) > 0 {
				if l.cfg.Targets == nil {
					l.cfg.Targets = map[string][]*Target{}
				}
				l.cfg.Targets[s.Name] = targets[i]
			}
		}
		l.finish(decoders[i])
	}
}

// decodeService decodes one service instance with d (nil for a reserved
// name). It reads nothing of the loader but its evaluation context: the
// blocks are decoded at once.
func decodeService(d *decoder, in instance) *service.Service {
	b, name := in.block, in.name
	switch name {
	case names.Hub:
		d.errorf(in.nameRange, "Reserved service name", "The name %q is reserved for the hub's own entry in each tool. Choose another name.", name)
		return nil
	}
	content, diags := in.body.Content(serviceSchema)
	d.diags = append(d.diags, diags...)
	a := content.Attributes
	s := &service.Service{Name: name, Enabled: true, Timeout: service.DefaultTimeout}

	s.Command, _ = d.str(a["command"])
	s.Args, _ = d.secretList(a["args"])
	s.Env, _ = d.secretMap(a["env"])
	if a["cwd"] != nil {
		s.Cwd, _ = d.path(a["cwd"])
	}
	s.URL, _ = d.secretStr(a["url"])
	if urlCredentials(s.URL) {
		d.plainSecret(a["url"], nil, "The url's credentials (a password or a token in its query)")
	}
	s.Headers, _ = d.secretMap(a["headers"])
	if a["timeout"] != nil {
		if t, ok := d.duration(a["timeout"]); ok {
			s.Timeout = t
		}
	}
	if a["project"] != nil {
		s.Project, _ = d.path(a["project"])
	}
	if v, ok := d.boolean(a["enabled"]); ok {
		s.Enabled = v
	}
	s.Description, _ = d.str(a["description"])
	if a["origin"] != nil {
		if o, ok := d.str(a["origin"]); ok {
			if !validOrigin(o) {
				d.errorf(a["origin"].Expr.Range(), "Invalid origin", "%q is not of the form \"tool:scope\" (scope user, local or project), optionally followed by \":original-name\".", o)
			}
			s.Origin = o
		}
	}

	decodeHubSettings(d, a, s)

	hasCommand, hasURL := a["command"] != nil, a["url"] != nil
	switch {
	case hasCommand && hasURL:
		d.errorf(b.DefRange, "Both command and url", "The service %q sets both command (a local stdio server) and url (a remote server). Keep the one that describes how to reach it.", name)
	case !hasCommand && !hasURL:
		d.errorf(b.DefRange, "Missing command or url", "The service %q needs either command (to start a local stdio server) or url (to reach a remote one).", name)
	}
	if hasCommand && s.Command == "" && !d.diags.HasErrors() {
		d.errorf(a["command"].Expr.Range(), "Empty command", "The command of service %q is empty.", name)
	}

	s.Transport = service.Stdio
	if hasURL {
		s.Transport = service.HTTP
	}
	if a["transport"] != nil {
		if t, ok := d.oneOf(a["transport"], service.Stdio, service.HTTP, service.SSE); ok {
			if (t == service.Stdio) != hasCommand && (hasCommand || hasURL) {
				want := "url"
				if t == service.Stdio {
					want = "command"
				}
				d.errorf(a["transport"].Expr.Range(), "Transport does not match", "A %s service is reached through %s.", t, want)
			}
			s.Transport = t
		}
	}
	if hasURL {
		for _, only := range []string{"args", "env", "cwd", "inherit_env"} {
			if a[only] != nil {
				d.errorf(a[only].NameRange, "Attribute only for stdio services", "%q applies to services started with command; %q is reached at a url.", only, name)
			}
		}
		checkURL(d, a["url"], s.URL)
	}
	decodeOAuth(d, content.Blocks.OfType("oauth"), s, hasURL)
	if hasCommand && a["headers"] != nil {
		d.errorf(a["headers"].NameRange, "Attribute only for remote services", "headers are sent to a service reached at a url; %q is started with command.", name)
	}
	for k := range s.Env {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			d.errorf(a["env"].Expr.Range(), "Invalid environment variable name", "%q cannot be an environment variable name.", k)
		}
	}
	for k := range s.Headers {
		if !validHeaderName(k) {
			d.errorf(a["headers"].Expr.Range(), "Invalid header name", "%q is not a valid HTTP header name.", k)
		}
	}
	return s
}

// checkURL checks the literal shape of a url that may contain references.
func checkURL(d *decoder, attr *hcl.Attribute, v secret.Value) {
	if attr == nil || v.IsZero() {
		return
	}
	probe, _ := v.Render(func(s string) string { return s }, func(secret.Ref) (string, error) { return "SECRET", nil })
	if strings.Contains(probe, "${") {
		// A variable the tool expands itself (Claude's ${X:-default}),
		// passed through as written: only the tool can check it.
		return
	}
	u, err := url.Parse(probe)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		d.errorf(attr.Expr.Range(), "Invalid url", "%s is not an http:// or https:// URL.", v.HCL())
	}
}

func validHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c <= ' ' || c >= 0x7f || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, c) {
			return false
		}
	}
	return true
}

var originScopes = map[string]bool{"user": true, "local": true, "project": true}

func validOrigin(o string) bool {
	parts := strings.SplitN(o, ":", 3)
	if len(parts) < 2 {
		return false
	}
	return names.Valid(parts[0]) && originScopes[parts[1]] && (len(parts) == 2 || parts[2] != "")
}

// decodeHubSettings reads the attributes that say how the hub runs the
// service: inherit_env (true, or a list of variable names), sessions
// ("shared" or "per-client"), allow_sampling and allow_elicitation.
func decodeHubSettings(d *decoder, a hcl.Attributes, s *service.Service) {
	if attr := a["inherit_env"]; attr != nil {
		if v, diags := attr.Expr.Value(d.ctx); !diags.HasErrors() && v.Type() == cty.Bool {
			s.InheritAllEnv, _ = d.boolean(attr)
		} else if names, ok := d.strList(attr); ok {
			for _, n := range names {
				if n == "" || strings.ContainsAny(n, "=\x00") {
					d.errorf(attr.Expr.Range(), "Invalid environment variable name", "%q cannot be an environment variable name.", n)
				}
			}
			s.InheritEnv = names
		}
	}
	if a["sessions"] != nil {
		s.Sessions, _ = d.oneOf(a["sessions"], service.Shared, service.PerClient)
	}
	if v, ok := d.boolean(a["allow_sampling"]); ok {
		s.RefuseSampling = !v
	}
	if v, ok := d.boolean(a["allow_elicitation"]); ok {
		s.RefuseElicitation = !v
	}
}
