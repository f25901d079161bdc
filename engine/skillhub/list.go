package skillhub

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/names"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/skills"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// A Machine is where the listing looks: chronicle's folder, the tools (whose
// skills folders are listed) and the state (which copies are chronicle's,
// where each skill came from).
type Machine struct {
	ChronicleHome string
	Env           provider.Env
	Tools         []provider.Provider
	// State may be nil: no skill then has an origin or a tracked copy.
	State *state.State
}

// A Skill is one central skill as the Skills Hub shows it.
type Skill struct {
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Tags        []string `json:"tags"`
	Rating      int      `json:"rating"`
	// Links has a key for each known tool with a user-level skills folder:
	// one of the link statuses (linked, copied, drift, directory, file,
	// dangling, foreign, none).
	Links map[string]string `json:"links"`
	// Projects are the project-level skills folders that have something
	// under the skill's name.
	Projects []ProjectLink `json:"projects"`
	Origin   Origin        `json:"origin"`
}

// A ProjectLink is what one project's skills folder of a tool has under a
// central skill's name.
type ProjectLink struct {
	Tool    string `json:"tool"`
	Project string `json:"project"`
	Path    string `json:"path"`
	Status  string `json:"status"`
}

// An Origin says where a central skill was imported from: a local folder, or
// a git repository at a commit.
type Origin struct {
	Source string `json:"source,omitempty"`
	Repo   string `json:"repo,omitempty"`
	Ref    string `json:"ref,omitempty"`
	SHA    string `json:"sha,omitempty"`
	Path   string `json:"path,omitempty"`
}

// StoreDir returns the central store under chronicle's folder.
func StoreDir(chronicleHome string) string { return filepath.Join(chronicleHome, "skills") }

// List returns every central skill, by name.
func List(r fsys.Reader, m Machine) ([]Skill, error) {
	central, err := centralSkills(r, StoreDir(m.ChronicleHome))
	if err != nil {
		return nil, err
	}
	meta, err := LoadMeta(r, MetaPath(m.ChronicleHome))
	if err != nil {
		return nil, err
	}
	dirs := skillDirs(m)
	copies := trackedCopies(m.State)
	out := make([]Skill, 0, len(central))
	for _, name := range central {
		out = append(out, describe(r, m, name, meta[name], dirs, copies))
	}
	return out, nil
}

// Get returns one central skill; ErrNoSkill when the store has none of that
// name.
func Get(r fsys.Reader, m Machine, name string) (Skill, error) {
	all, err := List(r, m)
	if err != nil {
		return Skill{}, err
	}
	for _, s := range all {
		if s.Name == name {
			return s, nil
		}
	}
	return Skill{}, fmt.Errorf("%w: %s", ErrNoSkill, name)
}

func describe(r fsys.Reader, m Machine, name string, meta Meta, dirs []provider.SkillDir, copies map[string]state.Link) Skill {
	central := filepath.Join(StoreDir(m.ChronicleHome), name)
	meta = meta.normal()
	s := Skill{Name: name, Tags: meta.Tags, Rating: meta.Rating, Links: map[string]string{}, Projects: []ProjectLink{}}
	if fm, err := skills.ReadManifest(r, central); err == nil {
		s.Description = fm.Description
	}
	if m.State != nil {
		if rec, ok := m.State.Skills[name]; ok {
			s.Origin = Origin{Source: rec.Source, Repo: rec.OriginRepo, Ref: rec.OriginRef, SHA: rec.OriginSHA, Path: rec.Path}
		}
	}
	for _, d := range dirs {
		path := filepath.Join(d.Dir, name)
		status := linkStatus(r, path, central, copies)
		if d.Scope == provider.ScopeProject {
			if status != None {
				s.Projects = append(s.Projects, ProjectLink{Tool: d.Tool, Project: d.Project, Path: path, Status: status})
			}
			continue
		}
		for _, tool := range append([]string{d.Tool}, d.SharedWith...) {
			// A tool with two user-level folders (codex's legacy one)
			// shows the one that has something.
			if old, seen := s.Links[tool]; !seen || old == None {
				s.Links[tool] = status
			}
		}
	}
	return s
}

// skillDirs returns every tool's skills folders.
func skillDirs(m Machine) []provider.SkillDir {
	var out []provider.SkillDir
	for _, p := range m.Tools {
		for _, d := range p.SkillDirs(m.Env) {
			if !d.ReadOnly { // a plugin's skills: never a link of chronicle's
				out = append(out, d)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Project != out[j].Project {
			return out[i].Project < out[j].Project
		}
		return out[i].Tool < out[j].Tool
	})
	return out
}

// centralSkills returns the names of the skills in the store: its folders
// with a valid name (hidden staging folders are not skills).
func centralSkills(r fsys.Reader, store string) ([]string, error) {
	entries, err := r.ReadDir(store)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the central store %s: %w", store, err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") || !e.IsDir() || !names.Valid(e.Name()) {
			continue
		}
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out, nil
}
