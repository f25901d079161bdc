package state

import (
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
)

// currentVersion is the state file format Save writes. Raise it, and add a
// reader for the old version in upgrade.go, whenever a change to the types
// below would make an older chronicle misread the file.
const currentVersion = 3

// The types below are the state file format, version 3 (version 2 had no
// blocks and files, so an older chronicle would not see chronicle's blocks
// and whole files and could not honour them; version 1 had the fields of
// version 2 and could hold plain-text secrets, which reading it scrubs).
// They mirror the in-memory types field by field, so most convert with a
// plain type conversion; a field added to a model type breaks that
// conversion at compile time, which is the reminder to decide its place in
// the file. Fields added within version 3 must be optional.

type fileFormat struct {
	Version          int                  `json:"version"`
	Serial           uint64               `json:"serial"`
	Lineage          string               `json:"lineage"`
	ChronicleVersion string               `json:"chronicle_version,omitempty"`
	ConfigDir        string               `json:"config_dir,omitempty"`
	Services         map[string]serviceV1 `json:"services"`
	Policies         map[string]policyV1  `json:"policies"`
	Hub              *hubV1               `json:"hub,omitempty"`
	Profiles         map[string]profileV1 `json:"profiles,omitempty"` // additive in version 2
	Chronova         *chronovaV1          `json:"chronova,omitempty"`
	Skills           map[string]skillV1   `json:"skills"`
	Links            []linkV1             `json:"links"`
	Entries          []entryV1            `json:"entries"`
	Blocks           []blockV3            `json:"blocks,omitempty"` // version 3
	Files            []ownedFileV3        `json:"files,omitempty"`  // version 3
	Journal          []intentV1           `json:"journal"`
	Sources          map[string]string    `json:"sources"`
	// CreatedFiles is additive in version 2: absent in older files, which
	// then record no tool file as created by chronicle (none is removed).
	CreatedFiles []string `json:"created_files,omitempty"`
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

type linkV1 struct {
	Address string `json:"address"`
	Tool    string `json:"tool"`
	Path    string `json:"path"`
	Target  string `json:"target"`
	Mode    string `json:"mode"`
	Hash    string `json:"hash,omitempty"`
}

type entryV1 struct {
	Address string   `json:"address"`
	Tool    string   `json:"tool"`
	Scope   string   `json:"scope,omitempty"`
	Project string   `json:"project,omitempty"`
	File    string   `json:"file"`
	KeyPath []string `json:"key_path"`
	Name    string   `json:"name"`
	Hash    string   `json:"hash"`
	// Rendered is optional within version 1: files written before it
	// existed read as "", which a plan treats as "render again".
	Rendered string `json:"rendered,omitempty"`
	// Extra is optional within version 2: files written before it existed
	// read as none, which is what chronicle had written through extra.
	Extra []string `json:"extra,omitempty"`
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

// toFile converts the state to the current file format. Links and entries
// are sorted so that saving the same state twice writes the same bytes.
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
		Links:    convertSlice(s.Links, func(l Link) linkV1 { return linkV1(l) }),
		Entries:  convertSlice(s.Entries, func(e Entry) entryV1 { return entryV1(e) }),
		Blocks:   convertSlice(s.Blocks, func(b Block) blockV3 { return blockV3(b) }),
		Files:    convertSlice(s.Files, func(o File) ownedFileV3 { return ownedFileV3(o) }),
		Journal:  convertSlice(s.Intents, func(in Intent) intentV1 { return intentV1(in) }),
		Sources:  convertMap(s.Sources, func(h string) string { return h }),
	}
	sortInstructions(f)
	f.CreatedFiles = slices.Sorted(slices.Values(s.CreatedFiles))
	sort.SliceStable(f.Links, func(i, j int) bool {
		return f.Links[i].Address+"\x00"+f.Links[i].Path < f.Links[j].Address+"\x00"+f.Links[j].Path
	})
	sort.SliceStable(f.Entries, func(i, j int) bool {
		return f.Entries[i].Address+"\x00"+f.Entries[i].File < f.Entries[j].Address+"\x00"+f.Entries[j].File
	})
	return f
}

// fromFile converts the current file format to the in-memory state.
func fromFile(f *fileFormat) (*State, error) {
	s := &State{
		Serial: f.Serial, Lineage: f.Lineage,
		ChronicleVersion: f.ChronicleVersion, ConfigDir: f.ConfigDir,
		Services:     map[string]service.Service{},
		Policies:     convertMap(f.Policies, func(p policyV1) Policy { return Policy(p) }),
		Hub:          convertPtr(f.Hub, func(h hubV1) Hub { return Hub(h) }),
		Profiles:     convertMap(f.Profiles, func(p profileV1) Profile { return Profile(p) }),
		Chronova:     convertPtr(f.Chronova, func(c chronovaV1) Chronova { return Chronova(c) }),
		Skills:       convertMap(f.Skills, func(sk skillV1) Skill { return Skill(sk) }),
		Links:        convertSlice(f.Links, func(l linkV1) Link { return Link(l) }),
		Entries:      convertSlice(f.Entries, func(e entryV1) Entry { return Entry(e) }),
		Blocks:       convertSlice(f.Blocks, func(b blockV3) Block { return Block(b) }),
		Files:        convertSlice(f.Files, func(o ownedFileV3) File { return File(o) }),
		Intents:      convertSlice(f.Journal, func(in intentV1) Intent { return Intent(in) }),
		Sources:      convertMap(f.Sources, func(h string) string { return h }),
		CreatedFiles: slices.Clone(f.CreatedFiles),
	}
	for name, svc := range f.Services {
		m, err := serviceFromFile(svc)
		if err != nil {
			return nil, fmt.Errorf("service %q: %w", name, err)
		}
		s.Services[name] = m
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
