package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"time"

	"github.com/chronicle-dev/chronicle/engine/catalog"
	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/exposure"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/hubtoken"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// A toolsReport is the catalogue as chronicle tools shows it: where it came
// from and, per service, each tool with its token cost.
type toolsReport struct {
	// Source is "hub" (a running hub answered) or "cache" (catalog.json).
	Source   string        `json:"source"`
	From     string        `json:"from"`
	Services []serviceCost `json:"services"`
	// Tools and Tokens count what the hub offers: disabled tools aside.
	Tools  int `json:"tools"`
	Tokens int `json:"tokens"`
}

// A serviceCost is one service's tools and what they cost.
type serviceCost struct {
	Name   string     `json:"name"`
	Listed *time.Time `json:"listed,omitempty"` // when the cache's listing was made
	Tools  int        `json:"tools"`
	Tokens int        `json:"tokens"`
	Items  []toolCost `json:"items"`
}

// A toolCost is one tool's cost.
type toolCost struct {
	Name     string `json:"name"` // as the hub lists it
	Tool     string `json:"tool"` // the service's own name
	Tokens   int    `json:"tokens"`
	Disabled bool   `json:"disabled,omitempty"` // by a policy: not offered, not counted
	// Hidden says why the hub does not offer a tool no policy disables
	// (hubs before decision 0210 hid a tool that requires task
	// augmentation); not counted either, as /api/status does not count it.
	Hidden string `json:"hidden,omitempty"`
}

// service returns a service's entry, making it (in name order) on first
// use. The pointer is good until the next service is made.
func (r *toolsReport) service(name string) *serviceCost {
	i := sort.Search(len(r.Services), func(i int) bool { return r.Services[i].Name >= name })
	if i == len(r.Services) || r.Services[i].Name != name {
		r.Services = append(r.Services, serviceCost{})
		copy(r.Services[i+1:], r.Services[i:])
		r.Services[i] = serviceCost{Name: name, Items: []toolCost{}}
	}
	return &r.Services[i]
}

// add puts a tool into its service's entry.
func (r *toolsReport) add(service string, t toolCost) {
	s := r.service(service)
	s.Items = append(s.Items, t)
	if !t.Disabled && t.Hidden == "" {
		s.Tools++
		s.Tokens += t.Tokens
		r.Tools++
		r.Tokens += t.Tokens
	}
}

// hubURL returns the base URL of the hub the state describes.
func hubURL(st *state.State) string {
	listen := config.DefaultListen
	if st.Hub != nil && st.Hub.Listen != "" {
		listen = st.Hub.Listen
	}
	return "http://" + config.DialAddress(listen)
}

// fromHub asks a running hub for its catalogue (GET /api/tools), with the
// hub token: the state's, else the one the hub keeps in tokenFile.
func (a *app) fromHub(st *state.State, tokenFile string) (*toolsReport, error) {
	base := hubURL(st)
	req, err := http.NewRequestWithContext(a.ctx, http.MethodGet, base+"/api/tools", nil)
	if err != nil {
		return nil, err
	}
	if st.Hub != nil && !st.Hub.Token.IsZero() {
		token, err := a.resolver().Resolve(st.Hub.Token)
		if err != nil {
			return nil, fmt.Errorf("hub token: %w", err)
		}
		a.masker.Add(token)
		req.Header.Set("Authorization", "Bearer "+token)
	} else if token, err := hubtoken.Read(fsys.OS{}, tokenFile); err == nil {
		a.masker.Add(token)
		req.Header.Set("Authorization", "Bearer "+token)
	}
	client := &http.Client{Timeout: 5 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("no hub answers at %s", base)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("the hub at %s answered %s", base, resp.Status)
	}
	var items []struct {
		Name    string `json:"name"`
		Service string `json:"service"`
		Tool    string `json:"tool"`
		Blocked bool   `json:"blocked"`
		Hidden  string `json:"hidden"`
		Tokens  int    `json:"tokens"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&items); err != nil {
		return nil, fmt.Errorf("the hub at %s answered /api/tools with something else: %w", base, err)
	}
	r := &toolsReport{Source: "hub", From: base}
	for _, it := range items {
		r.add(it.Service, toolCost{Name: it.Name, Tool: it.Tool, Tokens: it.Tokens, Disabled: it.Blocked, Hidden: it.Hidden})
	}
	return r, nil
}

// fromCache reads the catalogue cache, applying the state's policies as
// the hub would. It returns nil when there is no cache.
func fromCache(path string, st *state.State) (*toolsReport, error) {
	f, err := catalog.Load(path)
	if err != nil || f == nil {
		return nil, err
	}
	r := &toolsReport{Source: "cache", From: path}
	for name, s := range f.Services {
		if _, declared := st.Services[name]; !declared && !(name == "chronova" && st.Chronova != nil) {
			continue
		}
		listed := s.Listed
		r.service(name).Listed = &listed
		p := st.Policies[name]
		for _, t := range s.Tools {
			r.add(name, toolCost{Name: t.Exposed, Tool: t.Name, Tokens: t.Tokens, Disabled: !exposure.ToolAllowed(p.DisabledTools, p.EnabledTools, t.Name)})
		}
	}
	return r, nil
}
