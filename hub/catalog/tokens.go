package catalog

import (
	"github.com/chronicle-dev/chronicle/hub/tokens"
)

// Token costs are counted only when something asks for them (/api/tools,
// /api/status, an auto endpoint, the catalogue cache): the tokenizer's
// table is loaded on the first count, once. Each definition is counted once
// and the count kept on the catalogue, which hands it on to the next
// catalogue for every definition that did not change.

// ToolTokens returns the cost of one tool's definition as the hub lists it.
func (c *Catalog) ToolTokens(t *Tool) int {
	if n, ok := c.tokens.Load(t.Sum); ok {
		return n.(int)
	}
	n := tokens.Tool(t.Tool)
	c.tokens.Store(t.Sum, n)
	return n
}

// TokensOf returns the summed cost of tools.
func (c *Catalog) TokensOf(tools []*Tool) int {
	n := 0
	for _, t := range tools {
		n += c.ToolTokens(t)
	}
	return n
}

// InheritTokens carries the counts of unchanged definitions over from the
// previous catalogue.
func (c *Catalog) InheritTokens(prev *Catalog) {
	if prev == nil {
		return
	}
	for _, t := range c.Tools {
		if n, ok := prev.tokens.Load(t.Sum); ok {
			c.tokens.Store(t.Sum, n)
		}
	}
}
