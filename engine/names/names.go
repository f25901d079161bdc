package names

import "regexp"

// MaxLen is the longest service, skill, link or tool name.
const MaxLen = 64

var pattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// Valid reports whether name may name a service, skill, link or tool: 1–64
// lowercase letters, digits and single hyphens, starting and ending with a
// letter or digit. The rule keeps every name safe as a path element and
// satisfies the Agent Skills naming rule.
func Valid(name string) bool {
	return len(name) <= MaxLen && pattern.MatchString(name)
}

// Rule explains Valid for error messages.
const Rule = "names are 1–64 lowercase letters, digits and single hyphens, and start and end with a letter or digit"

// Reserved names.
const (
	// Chronova is the built-in bridge service's name.
	Chronova = "chronova"
	// Hub is the name of the entry chronicle writes into a tool for its own hub.
	Hub = "chronicle"
)
