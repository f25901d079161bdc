package catalog

import (
	"errors"
	"strings"
	"sync"

	"github.com/chronicle-dev/chronicle/engine/exposure"
	"github.com/chronicle-dev/chronicle/hub/search"
)

// A View is what one endpoint offers of a catalogue: the tools of the
// services it may use that policy allows and its profile matches, the mode
// it lists them in, what it lists, and a search index over exactly the
// offered tools (built on the first search), so that disabled and
// out-of-scope tools are never found. Views are cached on their catalogue,
// so each is built once per catalogue change.
type View struct {
	Reach   Reach
	Mode    string  // exposure.All or exposure.Search, auto decided
	Offered []*Tool // by exposed name
	Offers  map[string]bool
	Listed  map[string]bool // the offered tools it lists
	Index   func() *search.Index
}

// A WhereKey finds a view under the settings of one reload: the scope and
// profile a where stands for change only with a reload.
type WhereKey struct {
	Gen uint64
	Where
}

// An AutoMode picks the mode of an endpoint in auto mode whose offered
// tools cost tokens.
type AutoMode func(r Reach, tokens int) string

// ViewFor returns the view of the where k stands for, found by k; on first
// use it is built with the reach reach gives and auto.
func (c *Catalog) ViewFor(k WhereKey, reach func(Where) Reach, auto AutoMode) *View {
	if v, ok := c.byWhere.Load(k); ok {
		return v.(*View)
	}
	v := c.ViewIn(reach(k.Where), auto)
	c.byWhere.Store(k, v)
	return v
}

// ViewIn returns the view of a reach, building it on first use; auto picks
// the mode of an endpoint in auto mode.
func (c *Catalog) ViewIn(r Reach, auto AutoMode) *View {
	key := r.Key()
	if v, ok := c.views.Load(key); ok {
		return v.(*View)
	}
	v := &View{Reach: r, Offers: map[string]bool{}, Listed: map[string]bool{}}
	if !r.Unknown {
		for _, t := range c.SortedTools() {
			if r.Services[t.Service] && !t.Blocked && t.Hidden() == "" && r.Profile.HasTool(exposure.FullName(t.Service, t.Name)) {
				v.Offered = append(v.Offered, t)
				v.Offers[t.Exposed] = true
			}
		}
	}
	v.Mode = r.Exposure.Settings.ModeFor(r.Profile)
	if r.Service != "" {
		v.Mode = exposure.All // a service endpoint is the server itself: no search
	} else if v.Mode == exposure.Auto {
		v.Mode = auto(r, c.TokensOf(v.Offered))
	}
	for _, t := range v.Offered {
		if r.Exposure.Settings.Lists(v.Mode, exposure.FullName(t.Service, t.Name)) {
			v.Listed[t.Exposed] = true
		}
	}
	v.Index = sync.OnceValue(func() *search.Index { return search.NewIndex(DocsOf(v.Offered)) })
	actual, _ := c.views.LoadOrStore(key, v)
	return actual.(*View)
}

// DescribeReach names an endpoint for people.
func DescribeReach(r Reach) string {
	if r.Profile != nil {
		return "profile " + r.Profile.Name
	}
	return "the hub's endpoint"
}

// DocsOf returns the tools as the search index ranks them: the exposed name,
// the upstream's own name and title, and the description without the
// "[service] " prefix the hub lists (the service is a field of its own).
func DocsOf(tools []*Tool) []search.Doc {
	docs := make([]search.Doc, 0, len(tools))
	for _, t := range tools {
		title := t.Tool.Title
		if title == "" {
			title = t.Tool.Annotations.Title
		}
		docs = append(docs, search.Doc{
			Name: t.Exposed, Service: t.Service, Tool: t.Name, Title: title,
			Description: strings.TrimPrefix(t.Tool.Description, "["+t.Service+"] "),
			InputSchema: t.Tool.RawInputSchema,
		})
	}
	return docs
}

// ListsMeta reports whether a view lists the meta-tools.
func (v *View) ListsMeta() bool { return v.Mode == exposure.Search }

// ErrNoTool is a call of a tool the caller cannot see: not in its view.
var ErrNoTool = errors.New("no such tool in this scope")
