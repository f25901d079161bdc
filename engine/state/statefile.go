package state

import (
	"fmt"
	"time"

	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
)

// currentVersion is the state file format Save writes. Raise it, and add a
// reader for the old version in upgrade.go, whenever a change to the types
// below would make an older chronicle misread the file.
const currentVersion = 4

// The types below are the state file format, version 4: what chronicle
// wrote into other programs' files — entries, marked blocks, whole files,
// links and copies — is one list of records of one shape (recordV4), each
// with its kind. Version 3 kept four lists of four shapes, a list of the
// tool files chronicle created besides, and hashed an entry whole (version
// 4 hashes the projection chronicle owns: own.EntryProjection); version 2
// had no blocks and files; version 1 could hold plain-text secrets, which
// reading it scrubs (upgrade.go). Fields added within version 4 must be
// optional.

type fileFormat struct {
	Version          int                  `json:"version"`
	Serial           uint64               `json:"serial"`
	Lineage          string               `json:"lineage"`
	ChronicleVersion string               `json:"chronicle_version,omitempty"`
	ConfigDir        string               `json:"config_dir,omitempty"`
	Services         map[string]serviceV1 `json:"services"`
	Policies         map[string]policyV1  `json:"policies"`
	Hub              *hubV1               `json:"hub,omitempty"`
	Profiles         map[string]profileV1 `json:"profiles,omitempty"`
	Chronova         *chronovaV1          `json:"chronova,omitempty"`
	Skills           map[string]skillV1   `json:"skills"`
	Records          []recordV4           `json:"records"`
	Journal          []intentV1           `json:"journal"`
	Sources          map[string]string    `json:"sources"`
	// Machine is optional: absent in older files, which then record no
	// machine (the next apply records it, no refusal).
	Machine *machineV3 `json:"machine,omitempty"`
}

type machineV3 struct {
	Name string `json:"name"`
	From string `json:"from"`
}

type serviceV1 struct {
	Name        string                  `json:"name"`
	Transport   string                  `json:"transport,omitempty"`
	Command     string                  `json:"command,omitempty"`
	Args        []secret.Value          `json:"args,omitempty"`
	Env         map[string]secret.Value `json:"env,omitempty"`
	Cwd         string                  `json:"cwd,omitempty"`
	URL         secret.Value            `json:"url,omitzero"`
	Headers     map[string]secret.Value `json:"headers,omitempty"`
	Timeout     string                  `json:"timeout,omitempty"` // a Go duration, e.g. "60s"
	Project     string                  `json:"project,omitempty"`
	Enabled     bool                    `json:"enabled"`
	Description string                  `json:"description,omitempty"`
	Origin      string                  `json:"origin,omitempty"`
	// How the hub runs the service (additive: absent in older files).
	InheritEnv        []string `json:"inherit_env,omitempty"`
	InheritAllEnv     bool     `json:"inherit_all_env,omitempty"`
	Sessions          string   `json:"sessions,omitempty"`
	RefuseSampling    bool     `json:"refuse_sampling,omitempty"`
	RefuseElicitation bool     `json:"refuse_elicitation,omitempty"`
	// OAuth is the service's oauth block (additive: absent in older files).
	OAuth *oauthV1 `json:"oauth,omitempty"`
}

type oauthV1 struct {
	ClientID          string       `json:"client_id,omitempty"`
	ClientSecret      secret.Value `json:"client_secret,omitzero"`
	Scopes            []string     `json:"scopes,omitempty"`
	CallbackPort      int          `json:"callback_port,omitempty"`
	ClientMetadataURL string       `json:"client_metadata_url,omitempty"`
}

type policyV1 struct {
	Enabled       *bool    `json:"enabled,omitempty"`
	DisabledTools []string `json:"disabled_tools,omitempty"`
	EnabledTools  []string `json:"enabled_tools,omitempty"`
}

type hubV1 struct {
	Listen    string       `json:"listen,omitempty"`
	Token     secret.Value `json:"token,omitzero"`
	Hostnames []string     `json:"hostnames,omitempty"`
	// Tool exposure (additive: absent in older files and when not set).
	Tools           string   `json:"tools,omitempty"`
	SearchThreshold int      `json:"search_threshold,omitempty"`
	Always          []string `json:"always,omitempty"`
	MaxSessions     int      `json:"max_sessions,omitempty"`
	LocalClients    string   `json:"local_clients,omitempty"`
}

type profileV1 struct {
	Services []string `json:"services,omitempty"`
	Tools    []string `json:"tools,omitempty"`
	Exposure string   `json:"exposure,omitempty"`
}

type chronovaV1 struct {
	APIKey secret.Value `json:"api_key,omitzero"`
	APIURL string       `json:"api_url,omitempty"`
}

type skillV1 struct {
	Source     string `json:"source,omitempty"`
	Hash       string `json:"hash"`
	OriginRepo string `json:"origin_repo,omitempty"`
	OriginSHA  string `json:"origin_sha,omitempty"`
	OriginRef  string `json:"origin_ref,omitempty"`
	Path       string `json:"path,omitempty"`
}

type intentV1 struct {
	Address string    `json:"address"`
	Action  string    `json:"action"`
	Path    string    `json:"path,omitempty"`
	File    string    `json:"file,omitempty"`
	KeyPath []string  `json:"key_path,omitempty"`
	Name    string    `json:"name,omitempty"`
	Target  string    `json:"target,omitempty"`
	Hash    string    `json:"hash,omitempty"`
	Time    time.Time `json:"time"`
}

// toFile converts the state to the current file format. Records are
// sorted so that saving the same state twice writes the same bytes.
func toFile(s *State) *fileFormat {
	f := &fileFormat{
		Version: currentVersion, Serial: s.Serial, Lineage: s.Lineage,
		ChronicleVersion: s.ChronicleVersion, ConfigDir: s.ConfigDir,
		Services: convertMap(s.Services, serviceToFile),
		Policies: convertMap(s.Policies, func(p Policy) policyV1 { return policyV1(p) }),
		Hub:      convertPtr(s.Hub, func(h Hub) hubV1 { return hubV1(h) }),
		Profiles: convertMap(s.Profiles, func(p Profile) profileV1 { return profileV1(p) }),
		Chronova: convertPtr(s.Chronova, func(c Chronova) chronovaV1 { return chronovaV1(c) }),
		Skills:   convertMap(s.Skills, func(sk Skill) skillV1 { return skillV1(sk) }),
		Records:  records(s),
		Journal:  convertSlice(s.Intents, func(in Intent) intentV1 { return intentV1(in) }),
		Sources:  convertMap(s.Sources, func(h string) string { return h }),
		Machine:  convertPtr(s.Machine, func(m Machine) machineV3 { return machineV3(m) }),
	}
	return f
}

// fromFile converts the current file format to the in-memory state.
func fromFile(f *fileFormat) (*State, error) {
	s := &State{
		Serial: f.Serial, Lineage: f.Lineage,
		ChronicleVersion: f.ChronicleVersion, ConfigDir: f.ConfigDir,
		Services: map[string]service.Service{},
		Policies: convertMap(f.Policies, func(p policyV1) Policy { return Policy(p) }),
		Hub:      convertPtr(f.Hub, func(h hubV1) Hub { return Hub(h) }),
		Profiles: convertMap(f.Profiles, func(p profileV1) Profile { return Profile(p) }),
		Chronova: convertPtr(f.Chronova, func(c chronovaV1) Chronova { return Chronova(c) }),
		Skills:   convertMap(f.Skills, func(sk skillV1) Skill { return Skill(sk) }),
		Intents:  convertSlice(f.Journal, func(in intentV1) Intent { return Intent(in) }),
		Sources:  convertMap(f.Sources, func(h string) string { return h }),
		Links:    []Link{},
		Entries:  []Entry{},
		Machine:  convertPtr(f.Machine, func(m machineV3) Machine { return Machine(m) }),
	}
	for name, svc := range f.Services {
		m, err := serviceFromFile(svc)
		if err != nil {
			return nil, fmt.Errorf("service %q: %w", name, err)
		}
		s.Services[name] = m
	}
	for i, r := range f.Records {
		if err := r.into(s); err != nil {
			return nil, fmt.Errorf("records[%d]: %w", i, err)
		}
	}
	return s, nil
}

// convertMap returns a new, never nil, map with each value converted.
func convertMap[A, B any](m map[string]A, conv func(A) B) map[string]B {
	out := make(map[string]B, len(m))
	for k, v := range m {
		out[k] = conv(v)
	}
	return out
}

// convertSlice returns a new, never nil, slice with each element converted.
func convertSlice[A, B any](xs []A, conv func(A) B) []B {
	out := make([]B, 0, len(xs))
	for _, x := range xs {
		out = append(out, conv(x))
	}
	return out
}

func convertPtr[A, B any](p *A, conv func(A) B) *B {
	if p == nil {
		return nil
	}
	b := conv(*p)
	return &b
}

func serviceToFile(s service.Service) serviceV1 {
	return serviceV1{
		Name: s.Name, Transport: s.Transport, Command: s.Command, Args: s.Args,
		Env: s.Env, Cwd: s.Cwd, URL: s.URL, Headers: s.Headers,
		Timeout: formatDuration(s.Timeout), Project: s.Project, Enabled: s.Enabled,
		Description: s.Description, Origin: s.Origin,
		InheritEnv: s.InheritEnv, InheritAllEnv: s.InheritAllEnv, Sessions: s.Sessions,
		RefuseSampling: s.RefuseSampling, RefuseElicitation: s.RefuseElicitation,
		OAuth: convertPtr(s.OAuth, func(o service.OAuth) oauthV1 { return oauthV1(o) }),
	}
}

func serviceFromFile(f serviceV1) (service.Service, error) {
	var timeout time.Duration
	if f.Timeout != "" {
		d, err := time.ParseDuration(f.Timeout)
		if err != nil {
			return service.Service{}, fmt.Errorf("timeout %q is not a duration such as \"60s\"", f.Timeout)
		}
		timeout = d
	}
	return service.Service{
		Name: f.Name, Definition: service.Definition{Transport: f.Transport, Command: f.Command, Args: f.Args,
			Env: f.Env, Cwd: f.Cwd, URL: f.URL, Headers: f.Headers},
		Timeout: timeout, Project: f.Project, Enabled: f.Enabled,
		Description: f.Description, Origin: f.Origin,
		InheritEnv: f.InheritEnv, InheritAllEnv: f.InheritAllEnv, Sessions: f.Sessions,
		RefuseSampling: f.RefuseSampling, RefuseElicitation: f.RefuseElicitation,
		OAuth: convertPtr(f.OAuth, func(o oauthV1) service.OAuth { return service.OAuth(o) }),
	}, nil
}

// formatDuration writes a whole number of seconds as "60s" rather than Go's
// "1m0s", which reads worse in a file people open; other durations keep
// Go's form. Both parse with time.ParseDuration.
func formatDuration(d time.Duration) string {
	switch {
	case d == 0:
		return ""
	case d%time.Second == 0:
		return fmt.Sprintf("%ds", d/time.Second)
	default:
		return d.String()
	}
}
