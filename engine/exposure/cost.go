package exposure

import "sort"

// A Tool is one tool a service offers, with its token cost as the hub
// lists it.
type Tool struct {
	Service string
	Name    string // the service's own name for it
	Tokens  int
}

// A Cost is what an endpoint lists and what that costs a client's context.
type Cost struct {
	// Mode is the mode the endpoint uses: All or Search (Auto decided).
	Mode string `json:"mode"`
	// Tools and Tokens are what it lists (with the meta-tools in search
	// mode).
	Tools  int `json:"tools"`
	Tokens int `json:"tokens"`
	// Offered and OfferedTokens are every tool it offers, in full.
	Offered       int `json:"offered"`
	OfferedTokens int `json:"offered_tokens"`
}

// Estimate returns what an endpoint in mode (All, Search or Auto) lists of
// the offered tools (already narrowed by scope, policy and profile), with
// metaTokens the cost of the three meta-tools. Auto is decided as for a
// fresh endpoint (no earlier mode): hysteresis applies to a running hub.
func (s Settings) Estimate(offered []Tool, mode string, metaTokens int) Cost {
	var c Cost
	for _, t := range offered {
		c.Offered++
		c.OfferedTokens += t.Tokens
	}
	if mode == Auto {
		mode = Decide("", c.OfferedTokens, s.Limit())
	}
	c.Mode = mode
	if mode == Search {
		c.Tools, c.Tokens = 3, metaTokens
	}
	for _, t := range offered {
		if s.Lists(mode, FullName(t.Service, t.Name)) {
			c.Tools++
			c.Tokens += t.Tokens
		}
	}
	return c
}

// A Setup is what decides what the hub's endpoints offer: the services,
// their policies, the exposure settings and the profiles — from the
// configuration (plan) or the state (scan).
type Setup struct {
	// Offers are the services the hub offers.
	Offers   []Offer
	Settings Settings
	Profiles map[string]*Profile
}

// An Offer is one service the hub offers, with its policy's tool globs.
type Offer struct {
	Scoped
	DisabledTools []string
	EnabledTools  []string
}

// Listings are what each service listed, with token costs (the catalogue
// cache), and the cost of the meta-tools.
type Listings struct {
	Tools      map[string][]Tool // by service; a service absent was never listed
	MetaTokens int
}

// Seen is what a client of one endpoint sees, estimated from listings.
type Seen struct {
	Cost
	// Endpoint is /mcp or /mcp/profile/NAME.
	Endpoint string `json:"endpoint"`
	// Unlisted are the services the endpoint offers that the listings do
	// not know: what it lists is then more than the estimate.
	Unlisted []string `json:"unlisted,omitempty"`
	// Known is set when the listings cover every service offered.
	Known bool `json:"known"`
	// NoProfile is set when the endpoint serves a profile that is not
	// defined: the hub offers nothing there.
	NoProfile bool `json:"no_profile,omitempty"`
}

// Sees estimates what a client of the endpoint of profile ("" for the
// whole hub) working under root ("" for none) sees, given listings (nil when
// none are known: every service is then unlisted).
func (s Setup) Sees(l *Listings, profile, root string) Seen {
	seen := Seen{Endpoint: "/mcp"}
	var p *Profile
	if profile != "" {
		seen.Endpoint = "/mcp/profile/" + profile
		if p = s.Profiles[profile]; p == nil {
			seen.Mode, seen.NoProfile, seen.Known = All, true, true
			return seen
		}
	}
	scoped := make([]Scoped, len(s.Offers))
	for i, svc := range s.Offers {
		scoped[i] = svc.Scoped
	}
	vis := Visible(scoped, root)
	var offered []Tool
	for _, svc := range s.Offers {
		if !vis[svc.Name] || !p.HasService(svc.Name) {
			continue
		}
		var tools []Tool
		listed := false
		if l != nil {
			tools, listed = l.Tools[svc.Name]
		}
		if !listed {
			seen.Unlisted = append(seen.Unlisted, svc.Name)
			continue
		}
		for _, t := range tools {
			if ToolAllowed(svc.DisabledTools, svc.EnabledTools, t.Name) && p.HasTool(FullName(svc.Name, t.Name)) {
				offered = append(offered, t)
			}
		}
	}
	sort.Strings(seen.Unlisted)
	seen.Known = len(seen.Unlisted) == 0
	meta := 0
	if l != nil {
		meta = l.MetaTokens
	}
	seen.Cost = s.Settings.Estimate(offered, s.Settings.ModeFor(p), meta)
	return seen
}
