package catalog

import (
	"sort"
	"strconv"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/exposure"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// Exposure is the exposure part of the state the hub runs from.
type Exposure struct {
	Settings exposure.Settings
	Profiles map[string]*exposure.Profile
	// Gen counts reloads, so that views built for older settings are not
	// reused.
	Gen uint64
}

// ExposureOf reads the exposure settings and profiles of a state.
func ExposureOf(st *state.State, gen uint64) Exposure {
	setup := st.ExposureSetup()
	return Exposure{Settings: setup.Settings, Profiles: setup.Profiles, Gen: gen}
}

// A Where is what decides a view: the profile ("" for the whole hub), the
// one service of a service endpoint ("" for none; service_endpoint.go) and
// the root folder ("" for none).
type Where struct {
	Profile string
	Service string
	Root    string
}

// ProfileOfPath returns the profile an endpoint path serves, or "".
func ProfileOfPath(path string) string {
	name, _ := strings.CutPrefix(path, "/mcp/profile/")
	if name == path {
		return ""
	}
	return name
}

// A Reach is the services a where may use, under the current settings.
type Reach struct {
	Exposure Exposure
	Profile  *exposure.Profile // nil for the whole hub
	// Service is the one service of a service endpoint: its tools and
	// prompts keep their own names there, and every one is listed.
	Service  string
	Services map[string]bool
	// Unknown is set for an endpoint of a profile the state no longer
	// defines: it offers nothing.
	Unknown bool
}

// Key identifies the view of a reach within one catalogue.
func (r Reach) Key() string {
	names := make([]string, 0, len(r.Services))
	for s := range r.Services {
		names = append(names, s)
	}
	sort.Strings(names)
	p := ""
	if r.Profile != nil {
		p = r.Profile.Name
	}
	if r.Service != "" {
		p = "\x01service:" + r.Service // no profile's name holds a control character
	}
	return strconv.FormatUint(r.Exposure.Gen, 10) + "\x00" + p + "\x00" + strings.Join(names, ",")
}

// AutoKey identifies an endpoint for auto's hysteresis across catalogues
// and reloads: its profile and services.
func (r Reach) AutoKey() string {
	_, k, _ := strings.Cut(r.Key(), "\x00")
	return k
}

// ReachOf returns the services w may use among the services the hub
// serves (each with its project folder): the scope of its root, narrowed to
// its profile's services, under the settings cfg.
func ReachOf(w Where, projects []exposure.Scoped, cfg Exposure) Reach {
	r := Reach{Exposure: cfg, Services: exposure.Visible(projects, w.Root)}
	if w.Service != "" {
		r.Service = w.Service
		inScope := r.Services[w.Service]
		r.Services = map[string]bool{}
		if inScope {
			r.Services[w.Service] = true // only what is in reach: key() names it
		}
		return r
	}
	if w.Profile == "" {
		return r
	}
	r.Profile = cfg.Profiles[w.Profile]
	if r.Profile == nil {
		r.Unknown, r.Services = true, map[string]bool{}
		return r
	}
	for s := range r.Services {
		if !r.Profile.HasService(s) {
			delete(r.Services, s)
		}
	}
	return r
}

// ServicePrefix begins the path of a service endpoint.
const ServicePrefix = "/mcp/service/"

// ServiceOfPath returns the service an endpoint path serves, or "".
func ServiceOfPath(path string) string {
	name, ok := strings.CutPrefix(path, ServicePrefix)
	if !ok {
		return ""
	}
	return name
}
