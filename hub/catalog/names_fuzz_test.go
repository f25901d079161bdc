package catalog

import (
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/names"
)

// FuzzExposedNamesAreInjective checks the names the hub gives tools: at
// most 64 characters from [A-Za-z0-9_-], and never the same name for two
// different (service, tool) pairs. Random pairs almost never collide, so the
// second pair is built to come close: the other fuzzed name, names that
// sanitise or truncate alike, another service's name, and a tool named
// like the first one's exposed name.
func FuzzExposedNamesAreInjective(f *testing.F) {
	for _, s := range [][3]string{
		{"github", "create_issue", "create.issue"},
		{"svc", "x.", ""},
		{"svc", strings.Repeat("a", 80), strings.Repeat("a", 80) + "b"},
		{"a", "b__c", "c"},
		{"my-server", "héllo wörld/..", "h_llo_w_rld___"},
		{"s", "report_20240101", "report-20240101"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, service, tool, other string) {
		service = serviceName(service)
		name := ExposedName(service, tool)
		if !validName.MatchString(name) || len(name) > MaxToolName {
			t.Fatalf("ExposedName(%q, %q) = %q: not 1–64 characters of [A-Za-z0-9_-]", service, tool, name)
		}
		if again := ExposedName(service, tool); again != name {
			t.Fatalf("ExposedName(%q, %q) gave %q, then %q", service, tool, name, again)
		}
		tail := strings.TrimPrefix(name, service+Separator)
		pairs := [][2]string{
			{service, other},
			{service, tail},       // a tool named like this one's exposed name
			{service, tool + "x"}, // same prefix
			{service, sanitize(tool)},
			{service, strings.ReplaceAll(tool, "_", ".")},
			{service + "-x", tool},
			{serviceName(service + tool), ""},
			{serviceName(service + other), tool},
		}
		if len(tool) > 0 {
			pairs = append(pairs, [2]string{service, tool[:len(tool)-1]})
		}
		for _, p := range pairs {
			if p[0] == service && p[1] == tool {
				continue
			}
			if got := ExposedName(p[0], p[1]); got == name {
				t.Fatalf("ExposedName(%q, %q) = ExposedName(%q, %q) = %q", service, tool, p[0], p[1], name)
			}
		}
	})
}

// serviceName turns fuzz input into a valid service name (names.Valid),
// since the hub only ever names tools of declared services.
func serviceName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' {
			b.WriteRune(r)
		}
	}
	name := b.String()
	if len(name) > names.MaxLen {
		name = name[:names.MaxLen]
	}
	if !names.Valid(name) {
		return "s"
	}
	return name
}
