package exposure

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
	Mode string
	// Tools and Tokens are what it lists (with the meta-tools in search
	// mode).
	Tools, Tokens int
	// Offered and OfferedTokens are every tool it offers, in full.
	Offered, OfferedTokens int
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
