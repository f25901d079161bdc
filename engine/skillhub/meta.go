package skillhub

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

// MetaFileName is the metadata file's name in chronicle's folder.
const MetaFileName = "skills-meta.json"

// metaVersion is the format of skills-meta.json.
const metaVersion = 1

// MaxRating is the highest rating; 0 means unrated.
const MaxRating = 5

// MaxTagLength is the longest tag.
const MaxTagLength = 32

// A Meta is what a person says about one skill.
type Meta struct {
	Tags   []string `json:"tags"`
	Rating int      `json:"rating"`
}

// metaFile is skills-meta.json.
type metaFile struct {
	Version int             `json:"version"`
	Skills  map[string]Meta `json:"skills"`
}

// MetaPath returns the metadata file under chronicle's folder.
func MetaPath(chronicleHome string) string { return filepath.Join(chronicleHome, MetaFileName) }

var tagPattern = regexp.MustCompile(`^[a-z0-9-]+$`)

// CheckTag returns why tag is not a valid tag, or nil.
func CheckTag(tag string) error {
	if len(tag) > MaxTagLength || !tagPattern.MatchString(tag) {
		return fmt.Errorf("%q is not a valid tag: tags are 1 to %d characters of a-z, 0-9 and -", tag, MaxTagLength)
	}
	return nil
}

// CheckRating returns why n is not a valid rating, or nil.
func CheckRating(n int) error {
	if n < 0 || n > MaxRating {
		return fmt.Errorf("%d is not a valid rating: ratings are 0 (unrated) to %d", n, MaxRating)
	}
	return nil
}

// Check returns why m cannot be stored, or nil.
func (m Meta) Check() error {
	for _, t := range m.Tags {
		if err := CheckTag(t); err != nil {
			return err
		}
	}
	return CheckRating(m.Rating)
}

// normal returns m with its tags sorted and unique, never nil.
func (m Meta) normal() Meta {
	tags := slices.Clone(m.Tags)
	slices.Sort(tags)
	m.Tags = slices.Compact(tags)
	if m.Tags == nil {
		m.Tags = []string{}
	}
	return m
}

// LoadMeta reads the metadata file; a missing file holds none.
func LoadMeta(r fsys.Reader, path string) (map[string]Meta, error) {
	data, err := r.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]Meta{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	var f metaFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if f.Version != metaVersion {
		return nil, fmt.Errorf("%s: format version %d is not one this chronicle reads (%d)", path, f.Version, metaVersion)
	}
	if f.Skills == nil {
		f.Skills = map[string]Meta{}
	}
	return f.Skills, nil
}

// saveMeta replaces the metadata file atomically.
func saveMeta(sys fsys.System, path string, skills map[string]Meta) error {
	data, err := json.MarshalIndent(metaFile{Version: metaVersion, Skills: skills}, "", "  ")
	if err != nil {
		return err
	}
	if err := sys.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := sys.WriteFile(path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// ErrNoSkill says a name is not a central skill.
var ErrNoSkill = errors.New("no such central skill")

// UpdateMeta changes the metadata of the central skill name with edit and
// writes the file, dropping the metadata of skills that are no longer in the
// store. The caller holds the state lock. Nothing is written when the skill
// does not exist (ErrNoSkill), edit fails, or the result is invalid.
func UpdateMeta(sys fsys.System, chronicleHome, name string, edit func(*Meta) error) (Meta, error) {
	central, err := centralSkills(sys, StoreDir(chronicleHome))
	if err != nil {
		return Meta{}, err
	}
	if !slices.Contains(central, name) {
		return Meta{}, fmt.Errorf("%w: %s (the store %s has %d)", ErrNoSkill, name, StoreDir(chronicleHome), len(central))
	}
	path := MetaPath(chronicleHome)
	all, err := LoadMeta(sys, path)
	if err != nil {
		return Meta{}, err
	}
	m := all[name].normal()
	if err := edit(&m); err != nil {
		return Meta{}, err
	}
	m = m.normal()
	if err := m.Check(); err != nil {
		return Meta{}, err
	}
	kept := map[string]Meta{}
	for _, n := range central {
		if old, ok := all[n]; ok {
			kept[n] = old
		}
	}
	if len(m.Tags) == 0 && m.Rating == 0 {
		delete(kept, name)
	} else {
		kept[name] = m
	}
	if err := saveMeta(sys, path, kept); err != nil {
		return Meta{}, err
	}
	return m, nil
}
