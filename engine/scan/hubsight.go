package scan

import (
	"net/url"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/exposure"
	"github.com/chronicle-dev/chronicle/engine/names"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/service"
)

// hubSeen estimates what a tool sees through a hub entry found in its file
// (chronicle serve --stdio [--profile NAME], or the hub's URL), from what
// the state says the hub offers and the catalogue cache's listings. It
// returns nil for any other entry, or when there is no state.
func hubSeen(loc provider.Location, e provider.Entry, opts Options) *exposure.Seen {
	if e.Name != names.Hub || opts.State == nil {
		return nil
	}
	profile, root := "", ""
	if loc.Scope != provider.ScopeUser {
		root = loc.Project
	}
	if e.Transport == service.Stdio {
		for i, a := range e.Args {
			if s, _ := a.Literal(); s == "--profile" && i+1 < len(e.Args) {
				profile, _ = e.Args[i+1].Literal()
			}
		}
	} else if raw, ok := e.URL.Literal(); ok {
		if u, err := url.Parse(raw); err == nil {
			profile = strings.TrimPrefix(u.Path, "/mcp/profile/")
			if profile == u.Path {
				profile = ""
			}
			if r := u.Query().Get("root"); r != "" {
				root = r
			}
		}
	}
	seen := opts.State.ExposureSetup().Sees(opts.Catalog.Listings(), profile, root)
	return &seen
}
