package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/engine/exposure"
	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/hub/inspect"
)

// A Listing is what one service offers: its tools, prompts and resources.
type Listing struct {
	Tools     []mcp.Tool
	Prompts   []mcp.Prompt
	Resources []mcp.Resource
	Templates []mcp.ResourceTemplate
}

// A Source is one service's listing (or why it has none) with what
// the hub needs to expose it.
type Source struct {
	Name    string
	Project string
	Policy  *state.Policy
	Listing Listing
	Err     error
}

// A Tool is a service's tool under its hub name.
type Tool struct {
	Exposed string
	Service string
	Name    string // the upstream's own name
	Tool    mcp.Tool
	Blocked bool   // hidden and refused by policy
	Sum     string // identifies the listed definition, to tell a changed list
	// Task is set when the service offers the tool only as a task
	// (execution.taskSupport "required"): the hub calls it as one and
	// answers its client with the task's result (decision 0210).
	Task bool
	// Tasks is set when the service offers the tool as a task at all
	// (execution.taskSupport "optional" or "required"): a client of the
	// hub may then ask for a task, which the hub makes upstream and hands
	// on under a handle of its own (decision 0211).
	Tasks bool
}

// Hidden returns why a tool is not offered although no policy hides it, or
// "". Nothing is hidden so today: a tool the service offers only as a task
// is offered, and the hub runs the task for its client (decision 0210).
func (t *Tool) Hidden() string {
	return ""
}

// offered returns a tool as the hub registers it with mcp-go: without
// execution.taskSupport, so that mcp-go never runs the tool in a task store
// of its own; the hub calls a task-only tool as a task itself (decision
// 0210), and lists a tool as task-capable only to a session it declared
// tasks to (decision 0211).
func offered(t mcp.Tool) mcp.Tool {
	t.Execution = nil
	return t
}

// A Prompt is a service's prompt under its hub name.
type Prompt struct {
	Exposed string
	Service string
	Name    string
	Prompt  mcp.Prompt
	Sum     string
}

// A Resource is a service's resource, under its own URI.
type Resource struct {
	Service  string
	Resource mcp.Resource
	Sum      string
}

// A Template is a service's resource template, under its own URI
// template; reads that match it are routed to the service.
type Template struct {
	Service  string
	Template mcp.ResourceTemplate
	Sum      string
}

// A Catalog is everything the hub offers, built once per reload or
// upstream change and read by every session.
type Catalog struct {
	Tools     map[string]*Tool // by exposed name
	Prompts   map[string]*Prompt
	Resources map[string]*Resource // by URI
	Templates map[string]*Template // by URI template
	// Collisions lists URIs and URI templates two services expose (the
	// first by name wins).
	Collisions []string
	// Errors holds, per service, why it offers nothing.
	Errors map[string]string
	// Projects maps each service to its project folder ("" when global),
	// for every service whose listing (or error) the catalogue holds.
	Projects map[string]string

	views   sync.Map // reach key → *view: what each endpoint offers and lists
	byWhere sync.Map // whereKey → *view: the same, found by where a request came from
	tokens  sync.Map // definition sum → its token cost, counted on demand
}

// Build aggregates the listings, in service-name order.
// Descriptions, schemas and every other listed field are masked for clients.
func Build(m *mask.Masker, listings []Source) *Catalog {
	sort.Slice(listings, func(i, j int) bool { return listings[i].Name < listings[j].Name })
	c := &Catalog{
		Tools: map[string]*Tool{}, Prompts: map[string]*Prompt{},
		Resources: map[string]*Resource{}, Templates: map[string]*Template{},
		Errors: map[string]string{}, Projects: map[string]string{},
	}
	for _, l := range listings {
		c.Projects[l.Name] = l.Project
		if l.Err != nil {
			c.Errors[l.Name] = m.Literal(l.Err.Error())
			continue
		}
		for _, t := range l.Listing.Tools {
			e := &Tool{Exposed: ExposedName(l.Name, t.Name), Service: l.Name, Name: t.Name, Blocked: !ToolAllowed(l.Policy, t.Name),
				Task:  t.Execution != nil && t.Execution.TaskSupport == mcp.TaskSupportRequired,
				Tasks: t.Execution != nil && (t.Execution.TaskSupport == mcp.TaskSupportRequired || t.Execution.TaskSupport == mcp.TaskSupportOptional)}
			e.Tool = inspect.MaskTool(m, offered(t))
			e.Tool.Name = e.Exposed
			e.Tool.Description = "[" + l.Name + "] " + e.Tool.Description
			e.Sum = Sum(e.Tool)
			c.Tools[e.Exposed] = e
		}
		for _, p := range l.Listing.Prompts {
			e := &Prompt{Exposed: ExposedName(l.Name, p.Name), Service: l.Name, Name: p.Name, Prompt: inspect.ForClient(m, p, inspect.DecodeJSON[mcp.Prompt])}
			e.Prompt.Name = e.Exposed
			e.Prompt.Description = "[" + l.Name + "] " + e.Prompt.Description
			e.Sum = Sum(e.Prompt)
			c.Prompts[e.Exposed] = e
		}
		for _, r := range l.Listing.Resources {
			if first, taken := c.Resources[r.URI]; taken {
				c.Collisions = append(c.Collisions, r.URI+" is exposed by "+first.Service+" and "+l.Name+"; "+first.Service+" serves it")
				continue
			}
			e := &Resource{Service: l.Name, Resource: inspect.ForClient(m, r, inspect.DecodeJSON[mcp.Resource])}
			e.Sum = Sum(e.Resource)
			c.Resources[r.URI] = e
		}
		for _, t := range l.Listing.Templates {
			key := TemplateKey(t)
			if first, taken := c.Templates[key]; taken {
				c.Collisions = append(c.Collisions, key+" is exposed by "+first.Service+" and "+l.Name+"; "+first.Service+" serves it")
				continue
			}
			e := &Template{Service: l.Name, Template: inspect.ForClient(m, t, inspect.DecodeJSON[mcp.ResourceTemplate])}
			e.Sum = Sum(e.Template)
			c.Templates[key] = e
		}
	}
	return c
}

// Unlisted returns the server's own name of name, a tool name a call on
// service's endpoint gave (turned into its exposed name), when the
// catalogue offers no such tool: the service is asked for it as it is
// (decision 0210). ok is false for a tool the catalogue holds, a name not
// of service, a name ExposedName had to shorten or change (its own name is
// not known), and a service that could not start (its stand-in says why).
func (c *Catalog) Unlisted(service, name string) (own string, ok bool) {
	if c.Tools[name] != nil {
		return "", false
	}
	if _, failed := c.Errors[service]; failed {
		return "", false
	}
	own, found := strings.CutPrefix(name, service+Separator)
	if !found || own == "" || ExposedName(service, own) != name {
		return "", false
	}
	return own, true
}

// ToolAllowed applies a policy's globs (see exposure.ToolAllowed).
func ToolAllowed(p *state.Policy, tool string) bool {
	return p == nil || exposure.ToolAllowed(p.DisabledTools, p.EnabledTools, tool)
}

// SortedTools returns the catalogue's tools by exposed name.
func (c *Catalog) SortedTools() []*Tool {
	out := make([]*Tool, 0, len(c.Tools))
	for _, t := range c.Tools {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Exposed < out[j].Exposed })
	return out
}

// TemplateKey is the URI template a resource template is known by.
func TemplateKey(t mcp.ResourceTemplate) string {
	if t.URITemplate == nil || t.URITemplate.Template == nil {
		return ""
	}
	return t.URITemplate.Raw()
}

// Sum identifies a listed definition by its JSON.
func Sum(v any) string {
	b, _ := json.Marshal(v)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8])
}

// SortedPrompts returns the catalogue's prompts by exposed name.
func (c *Catalog) SortedPrompts() []*Prompt {
	out := make([]*Prompt, 0, len(c.Prompts))
	for _, p := range c.Prompts {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Exposed < out[j].Exposed })
	return out
}

// SortedResources returns the catalogue's resources by URI.
func (c *Catalog) SortedResources() []*Resource {
	out := make([]*Resource, 0, len(c.Resources))
	for _, r := range c.Resources {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Resource.URI < out[j].Resource.URI })
	return out
}

// FailedService returns the service within r whose exposed names start
// like name and whose last listing failed, with why it failed.
func (c *Catalog) FailedService(name string, r Reach) (service, why string, ok bool) {
	for svc, err := range c.Errors {
		if r.Services[svc] && strings.HasPrefix(name, sanitize(svc)+Separator) && len(svc) > len(service) {
			service, why = svc, err
		}
	}
	return service, why, service != ""
}
