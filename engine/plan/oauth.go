package plan

import (
	"fmt"
	"maps"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/service"
)

// oauthFields gives e, service svc's entry written straight into tool,
// the tool's own OAuth fields for svc's oauth block (Inputs.OAuth, one
// table). ok is false when the tool cannot log in to svc as declared — it
// does not log in by itself, it lacks a field a setting needs, or the
// block has a client secret: the entry is then not written (a url alone
// would only meet a 401, and no static header stands in for a login) and
// the plan says to reach the service through the hub, which logs in with
// chronicle auth login. A warning for a tool the link names; for one that
// came in through tools = ["*"], one note per tool (leavesOut). An extra
// the target sets under the tool's OAuth key is the user's and wins.
func (b *builder) oauthFields(addr, tool string, l *config.Link, svc *service.Service, e *provider.Entry) bool {
	if svc.OAuth == nil {
		return true
	}
	support := b.in.OAuth[tool]
	fields, missing := support.Fields(svc.OAuth)
	if len(missing) == 0 {
		if _, own := e.Extra[support.Key]; len(fields) > 0 && !own {
			if e.Extra == nil {
				e.Extra = provider.Extra{}
			} else {
				e.Extra = maps.Clone(e.Extra)
			}
			maps.Copy(e.Extra, fields)
		}
		return true
	}
	why := oauthWhy(missing)
	err := fmt.Errorf("%s %s, so it cannot log in to %q as its oauth block says", tool, why, svc.Name)
	if !l.Names(tool) {
		b.leaveOut(l, tool, svc.Name, "no OAuth login of its own", err, true)
		return false
	}
	b.diag("warning", addr, "Use the hub for "+svc.Name+" in "+tool,
		"%v: the entry is not written. Reach %q through the chronicle hub (a link with hub = true), which logs in with chronicle auth login %s.", err, svc.Name, svc.Name)
	return false
}

// oauthWhy says in a few words what a tool lacks for the settings missing
// (OAuthSupport.Fields).
func oauthWhy(missing []string) string {
	var fields []string
	secret := false
	for _, m := range missing {
		switch m {
		case "login":
			return "does not log in to OAuth servers by itself, as far as its vendor documents"
		case "client_secret":
			secret = true
		default:
			fields = append(fields, m)
		}
	}
	var parts []string
	if secret {
		parts = append(parts, "would need the client secret in its file")
	}
	switch len(fields) {
	case 0:
	case 1:
		parts = append(parts, "has no field for "+fields[0])
	default:
		parts = append(parts, "has no field for "+strings.Join(fields[:len(fields)-1], ", ")+" or "+fields[len(fields)-1])
	}
	return strings.Join(parts, " and ")
}
