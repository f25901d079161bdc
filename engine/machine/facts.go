package machine

import (
	"os"
	"os/user"
	"runtime"
	"slices"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// Facts are what the configuration can know about the machine it is
// evaluated on, as machine.* in expressions.
type Facts struct {
	Hostname string
	OS       string // runtime.GOOS: linux, darwin, windows
	Arch     string // runtime.GOARCH: amd64, arm64, …
	User     string
	Home     string
	// Name is the machine file's machine { name }, else the short hostname;
	// NameFrom says which (NamedByFile, NamedByHostname).
	Name     string
	NameFrom string
	// Tags are the machine file's machine { tags }, sorted, each once.
	Tags []string
	// Tools are the names of the tools present on this machine, sorted.
	Tools []string
}

// Gather returns the facts of this machine for home and the machine file f
// (nil or empty when there is none). Tools is left for the caller, which
// asks the providers.
func Gather(home string, f *File) Facts {
	host, _ := os.Hostname()
	facts := Facts{Hostname: host, OS: runtime.GOOS, Arch: runtime.GOARCH, User: userName(), Home: home}
	facts.Name, _, _ = strings.Cut(host, ".")
	facts.NameFrom = NamedByHostname
	if f != nil {
		if f.Name != "" {
			facts.Name, facts.NameFrom = f.Name, NamedByFile
		}
		facts.Tags = sortedSet(f.Tags)
	}
	return facts
}

// userName is the login name: the account's, else $USER or $USERNAME.
func userName() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	if v := os.Getenv("USER"); v != "" {
		return v
	}
	return os.Getenv("USERNAME")
}

// Value returns the facts as the object machine.* reads: strings, and sets
// of strings for tags and tools.
func (f Facts) Value() cty.Value {
	return cty.ObjectVal(map[string]cty.Value{
		"hostname": cty.StringVal(f.Hostname),
		"os":       cty.StringVal(f.OS),
		"arch":     cty.StringVal(f.Arch),
		"user":     cty.StringVal(f.User),
		"home":     cty.StringVal(f.Home),
		"name":     cty.StringVal(f.Name),
		"tags":     stringSet(f.Tags),
		"tools":    stringSet(f.Tools),
	})
}

// UnknownTools returns the facts' value with machine.tools not known yet:
// tool blocks, which decide which tools exist, are evaluated with it.
func (f Facts) UnknownTools() cty.Value {
	v := f.Value().AsValueMap()
	v["tools"] = cty.UnknownVal(cty.Set(cty.String))
	return cty.ObjectVal(v)
}

// Header is the one line plan, apply and sync print first: the name,
// os/arch and tags.
func (f Facts) Header() string {
	tags := "no tags"
	if len(f.Tags) > 0 {
		tags = "tags: " + strings.Join(f.Tags, ", ")
	}
	return "Machine: " + f.Name + " (" + f.OS + "/" + f.Arch + "), " + tags
}

func stringSet(ss []string) cty.Value {
	if len(ss) == 0 {
		return cty.SetValEmpty(cty.String)
	}
	vals := make([]cty.Value, len(ss))
	for i, s := range ss {
		vals[i] = cty.StringVal(s)
	}
	return cty.SetVal(vals)
}

func sortedSet(ss []string) []string {
	out := slices.Clone(ss)
	slices.Sort(out)
	return slices.Compact(out)
}
