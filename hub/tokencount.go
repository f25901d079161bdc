package hub

import (
	"sync"

	"github.com/chronicle-dev/chronicle/hub/search"
	"github.com/chronicle-dev/chronicle/hub/tokens"
)

// Token costs are counted only when something asks for them (/api/tools,
// /api/status, an auto endpoint, the catalogue cache): the tokenizer's
// table is loaded on the first count, once. Each definition is counted once
// and the count kept on the catalogue, which hands it on to the next
// catalogue for every definition that did not change.

// toolTokens returns the cost of one tool's definition as the hub lists it.
func (c *Catalogue) toolTokens(t *exposedTool) int {
	if n, ok := c.tokens.Load(t.Sum); ok {
		return n.(int)
	}
	n := tokens.Tool(t.Tool)
	c.tokens.Store(t.Sum, n)
	return n
}

// tokensOf returns the summed cost of tools.
func (h *Hub) tokensOf(tools []*exposedTool) int {
	cat := h.current()
	n := 0
	for _, t := range tools {
		n += cat.toolTokens(t)
	}
	return n
}

// inheritTokens carries the counts of unchanged definitions over from the
// previous catalogue.
func (c *Catalogue) inheritTokens(prev *Catalogue) {
	if prev == nil {
		return
	}
	for _, t := range c.Tools {
		if n, ok := prev.tokens.Load(t.Sum); ok {
			c.tokens.Store(t.Sum, n)
		}
	}
}

// metaTokens is the cost of the three meta-tools as listed in search mode.
var metaTokens = sync.OnceValue(func() int { return tokens.Tools(search.MetaTools()) })
