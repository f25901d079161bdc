package hub

import (
	"context"
	"sort"
	"strconv"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/exposure"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// How the hub exposes tools is set in the state (hub.tools,
// search_threshold, always, and profile blocks) and read at each reload.
// What a request sees depends on where it came from: its profile (the
// /mcp/profile/NAME it was sent to, or serve --stdio --profile NAME) and its
// root (scope). Those two pick a view of the catalogue (view.go).

// exposureConfig is the exposure part of the state the hub runs from.
type exposureConfig struct {
	settings exposure.Settings
	profiles map[string]*exposure.Profile
	// gen counts reloads, so that views built for older settings are not
	// reused.
	gen uint64
}

// exposureOf reads the exposure settings and profiles of a state.
func exposureOf(st *state.State, gen uint64) exposureConfig {
	setup := st.ExposureSetup()
	return exposureConfig{settings: setup.Settings, profiles: setup.Profiles, gen: gen}
}

// exposureConfig returns the current exposure settings.
func (h *Hub) exposureConfig() exposureConfig {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.expose
}

// hasProfile reports whether the state defines a profile.
func (h *Hub) hasProfile(name string) bool {
	_, ok := h.exposureConfig().profiles[name]
	return ok
}

// profileNames lists the defined profiles for a message, or "".
func (h *Hub) profileNames() string {
	cfg := h.exposureConfig()
	if len(cfg.profiles) == 0 {
		return " (it defines none)"
	}
	names := make([]string, 0, len(cfg.profiles))
	for n := range cfg.profiles {
		names = append(names, n)
	}
	sort.Strings(names)
	return " (its profiles: " + strings.Join(names, ", ") + ")"
}

// A where is what decides a view: the profile ("" for the whole hub), the
// one service of a service endpoint ("" for none; service_endpoint.go) and
// the root folder ("" for none).
type where struct {
	profile string
	service string
	root    string
}

// whereOf returns where a request came from.
func (h *Hub) whereOf(ctx context.Context) where {
	w := where{profile: h.opts.Profile, service: h.opts.Service, root: h.rootFor(ctx)}
	if ep, ok := endpointOf(ctx); ok {
		w.profile, w.service = profileOfPath(ep.path), serviceOfPath(ep.path)
	}
	return w
}

// whereOfSession returns where a session was made.
func (h *Hub) whereOfSession(cs *clientSession) where {
	w := where{profile: h.opts.Profile, service: h.opts.Service, root: h.rootOfSession(cs)}
	if key := cs.endpointKey(); key != "" {
		path, _, _ := strings.Cut(key, "?root=")
		w.profile, w.service = profileOfPath(path), serviceOfPath(path)
	}
	return w
}

// profileOfPath returns the profile an endpoint path serves, or "".
func profileOfPath(path string) string {
	name, _ := strings.CutPrefix(path, "/mcp/profile/")
	if name == path {
		return ""
	}
	return name
}

// A reach is the services a where may use, under the current settings.
type reach struct {
	cfg     exposureConfig
	profile *exposure.Profile // nil for the whole hub
	// service is the one service of a service endpoint: its tools and
	// prompts keep their own names there, and every one is listed.
	service  string
	services map[string]bool
	// unknown is set for an endpoint of a profile the state no longer
	// defines: it offers nothing.
	unknown bool
}

// reachOf returns the services w may use: the scope of its root, narrowed
// to its profile's services.
func (h *Hub) reachOf(w where) reach {
	h.mu.Lock()
	projects, cfg := h.projects, h.expose
	h.mu.Unlock()
	r := reach{cfg: cfg, services: visible(projects, w.root)}
	if w.service != "" {
		r.service = w.service
		inScope := r.services[w.service]
		r.services = map[string]bool{}
		if inScope {
			r.services[w.service] = true // only what is in reach: key() names it
		}
		return r
	}
	if w.profile == "" {
		return r
	}
	r.profile = cfg.profiles[w.profile]
	if r.profile == nil {
		r.unknown, r.services = true, map[string]bool{}
		return r
	}
	for s := range r.services {
		if !r.profile.HasService(s) {
			delete(r.services, s)
		}
	}
	return r
}

// key identifies the view of a reach within one catalogue.
func (r reach) key() string {
	names := make([]string, 0, len(r.services))
	for s := range r.services {
		names = append(names, s)
	}
	sort.Strings(names)
	p := ""
	if r.profile != nil {
		p = r.profile.Name
	}
	if r.service != "" {
		p = "\x01service:" + r.service // no profile's name holds a control character
	}
	return strconv.FormatUint(r.cfg.gen, 10) + "\x00" + p + "\x00" + strings.Join(names, ",")
}

// autoKey identifies an endpoint for auto's hysteresis across catalogues
// and reloads: its profile and services.
func (r reach) autoKey() string {
	_, k, _ := strings.Cut(r.key(), "\x00")
	return k
}
