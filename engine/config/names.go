package config

import (
	"fmt"
	"regexp"
	"sort"

	"github.com/agext/levenshtein"
)

// MaxNameLen is the longest service, skill, link or tool name.
const MaxNameLen = 64

var namePattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// ValidName reports whether name may name a service, skill, link or tool:
// 1–64 lowercase letters, digits and single hyphens, starting and ending with
// a letter or digit. The rule keeps every name safe as a path element and
// satisfies the Agent Skills naming rule.
func ValidName(name string) bool {
	return len(name) <= MaxNameLen && namePattern.MatchString(name)
}

// NameRule explains ValidName for error messages.
const NameRule = "names are 1–64 lowercase letters, digits and single hyphens, and start and end with a letter or digit"

// checkName returns the problem with name, or "".
func checkName(kind, name string) string {
	if ValidName(name) {
		return ""
	}
	if len(name) > MaxNameLen {
		return fmt.Sprintf("The %s name is %d characters long; %s.", kind, len(name), NameRule)
	}
	return fmt.Sprintf("The %s name %q is not valid: %s.", kind, name, NameRule)
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
