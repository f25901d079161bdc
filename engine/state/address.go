package state

import (
	"fmt"
	"iter"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/agext/levenshtein"
)

// The addresses of the settings that exist at most once.
const (
	HubAddress      = "hub"
	ChronovaAddress = "chronova"
)

// Addresses returns every address the state records, sorted: services,
// policies, skills, the hub and chronova settings, links, config entries,
// and changes journalled but never completed.
func (s *State) Addresses() []string {
	seen := map[string]bool{}
	add := func(prefix string, names iter.Seq[string]) {
		for n := range names {
			seen[prefix+n] = true
		}
	}
	add("service.", maps.Keys(s.Services))
	add("policy.", maps.Keys(s.Policies))
	add("profile.", maps.Keys(s.Profiles))
	add("skill.", maps.Keys(s.Skills))
	if s.Hub != nil {
		seen[HubAddress] = true
	}
	if s.Chronova != nil {
		seen[ChronovaAddress] = true
	}
	for _, l := range s.Links {
		seen[l.Address] = true
	}
	for _, e := range s.Entries {
		seen[e.Address] = true
	}
	for _, b := range s.Blocks {
		for _, a := range b.WantedBy {
			seen[a] = true
		}
	}
	for _, f := range s.Files {
		seen[f.Address] = true
	}
	for _, r := range s.Rules {
		seen[r.Address] = true
	}
	for _, in := range s.Intents {
		seen[in.Address] = true
	}
	return slices.Sorted(maps.Keys(seen))
}

// Forget removes everything the state records at addr, so chronicle lets go
// of it: the files it wrote stay as they are and are no longer chronicle's.
// It does not save. An unknown address is an error naming close matches.
func (s *State) Forget(addr string) error {
	if !slices.Contains(s.Addresses(), addr) {
		return s.unknown(addr)
	}
	kind, name, _ := strings.Cut(addr, ".")
	switch kind {
	case "service":
		delete(s.Services, name)
	case "policy":
		delete(s.Policies, name)
	case "profile":
		delete(s.Profiles, name)
	case "skill":
		delete(s.Skills, name)
	case HubAddress:
		s.Hub = nil
	case ChronovaAddress:
		s.Chronova = nil
	}
	s.Links = slices.DeleteFunc(s.Links, func(l Link) bool { return l.Address == addr })
	s.Entries = slices.DeleteFunc(s.Entries, func(e Entry) bool { return e.Address == addr })
	s.Rules = slices.DeleteFunc(s.Rules, func(r Rule) bool { return r.Address == addr })
	s.forgetInstruction(addr)
	s.Done(addr)
	return nil
}

// unknown explains that addr is not in the state, naming close matches.
func (s *State) unknown(addr string) error {
	where := "the state"
	if s.path != "" {
		where = s.path
	}
	close := closeMatches(addr, s.Addresses())
	if len(close) == 0 {
		return fmt.Errorf("%s: no address %q; `chronicle state list` shows them all", where, addr)
	}
	return fmt.Errorf("%s: no address %q; close matches: %s", where, addr, strings.Join(close, ", "))
}

// closeMatches returns up to five candidates within a few edits of given,
// or containing it, nearest first.
func closeMatches(given string, candidates []string) []string {
	type scored struct {
		s string
		d int
	}
	var found []scored
	for _, c := range candidates {
		d := levenshtein.Distance(given, c, nil)
		if d <= 3 || d <= len(given)/4 || (given != "" && strings.Contains(c, given)) {
			found = append(found, scored{c, d})
		}
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].d < found[j].d })
	var out []string
	for i := 0; i < len(found) && i < 5; i++ {
		out = append(out, found[i].s)
	}
	return out
}
