package config

import (
	"fmt"
	"sort"

	"github.com/agext/levenshtein"
	"github.com/chronicle-dev/chronicle/engine/names"
)

// checkName returns the problem with name, or "".
func checkName(kind, name string) string {
	if names.Valid(name) {
		return ""
	}
	if len(name) > names.MaxLen {
		return fmt.Sprintf("The %s name is %d characters long; %s.", kind, len(name), names.Rule)
	}
	return fmt.Sprintf("The %s name %q is not valid: %s.", kind, name, names.Rule)
}

// suggest returns the closest candidate to given, or "" when none is close.
func suggest(given string, candidates []string) string {
	best, bestDist := "", 3
	sorted := append([]string(nil), candidates...)
	sort.Strings(sorted)
	for _, c := range sorted {
		if d := levenshtein.Distance(given, c, nil); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// didYouMean formats a suggestion as a sentence, or "" when there is none.
func didYouMean(given string, candidates []string) string {
	if s := suggest(given, candidates); s != "" {
		return fmt.Sprintf(" Did you mean %q?", s)
	}
	return ""
}
