package scan

import (
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/chronicle-dev/chronicle/engine/exposure"
	"github.com/chronicle-dev/chronicle/engine/mask"
)

// A Report is a scan as one JSON document: what `chronicle scan --json`
// prints and the hub serves at /api/mcp/scan. Secret-looking values are
// masked; the fields are stable (readers ignore unknown ones).
type Report struct {
	Services     []ReportEntry       `json:"services"`
	Skills       []ReportSkill       `json:"skills"`
	Instructions []ReportInstruction `json:"instructions"`
	Errors       []ReportError       `json:"errors"`
	// Moves are the servers a tool has and the tool its vendor moved its
	// users to lacks, each with the link that keeps both the same.
	Moves []ReportMove `json:"moves"`
	// Files are the tool files that exist and carry a note: the layout
	// they were read in, or another tool that reads them too.
	Files []ReportFile `json:"files"`
}

// A ReportFile is a tool file with what its provider says of it (File).
type ReportFile struct {
	Tool     string `json:"tool"`
	Scope    string `json:"scope"`
	Project  string `json:"project,omitempty"`
	Path     string `json:"path"`
	Note     string `json:"note"`
	ReadOnly bool   `json:"read_only,omitempty"`
}

// A ReportInstruction is a rule, command or agent file of a tool, or a
// root instruction file it shares with the user, with its classification.
type ReportInstruction struct {
	Tool       string   `json:"tool"`
	Kind       string   `json:"kind"`
	Scope      string   `json:"scope"`
	Project    string   `json:"project,omitempty"`
	Path       string   `json:"path"`
	Name       string   `json:"name,omitempty"`
	Root       bool     `json:"root,omitempty"`
	SharedWith []string `json:"shared_with,omitempty"`
	Blocks     []string `json:"blocks,omitempty"`
	Status     string   `json:"status"`
	Reason     string   `json:"reason,omitempty"`
}

// A ReportMove is one server of a tool whose vendor moved its users that
// the new tool does not have (Move).
type ReportMove struct {
	From    string `json:"from"`
	To      string `json:"to"`
	Scope   string `json:"scope"`
	Project string `json:"project,omitempty"`
	Name    string `json:"name"`
	// Declared says whether the configuration declares the service; when
	// not, chronicle adopt takes it first.
	Declared bool   `json:"declared"`
	Link     string `json:"link"`
	// Cannot says why the new tool cannot hold the server; Link then
	// gives it the hub entry.
	Cannot string `json:"cannot,omitempty"`
}

// A ReportEntry is one MCP entry of a tool, with its classification.
type ReportEntry struct {
	Tool      string            `json:"tool"`
	Scope     string            `json:"scope"`
	Project   string            `json:"project,omitempty"`
	File      string            `json:"file"`
	Name      string            `json:"name"`
	Transport string            `json:"transport"`
	Command   string            `json:"command,omitempty"`
	Args      []string          `json:"args,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
	URL       string            `json:"url,omitempty"`
	Headers   map[string]string `json:"headers,omitempty"`
	Enabled   bool              `json:"enabled"`
	Status    string            `json:"status"`
	Reason    string            `json:"reason,omitempty"`
	// Sees is, for the hub's entry, what the tool sees through it.
	Sees *exposure.Seen `json:"sees,omitempty"`
}

// A ReportSkill is one entry of a tool's skills folder, with its
// classification.
type ReportSkill struct {
	Tool    string `json:"tool"`
	Scope   string `json:"scope"`
	Project string `json:"project,omitempty"`
	Dir     string `json:"dir"`
	Name    string `json:"name"`
	Status  string `json:"status"`
	Reason  string `json:"reason,omitempty"`
	Link    string `json:"link,omitempty"`
	// Path is the skill's folder, or its file for a single-file skill.
	Path string `json:"path"`
	// ReadOnly and Note are its folder's: a plugin's skill, which
	// chronicle lists and never links.
	ReadOnly bool   `json:"read_only,omitempty"`
	Note     string `json:"note,omitempty"`
}

// A ReportError is a tool file the scan could not read.
type ReportError struct {
	Tool  string `json:"tool"`
	File  string `json:"file"`
	Error string `json:"error"`
}

// NewReport turns a scan's result into its JSON document. Lists are never
// null, so a reader can iterate them without a check.
func NewReport(r Result) Report {
	out := Report{Services: []ReportEntry{}, Skills: []ReportSkill{}, Instructions: []ReportInstruction{}, Errors: []ReportError{}, Moves: []ReportMove{}, Files: []ReportFile{}}
	for _, f := range r.Files {
		out.Files = append(out.Files, ReportFile(f))
	}
	for _, in := range r.Instructions {
		out.Instructions = append(out.Instructions, ReportInstruction{
			Tool: in.Tool, Kind: in.Kind, Scope: in.Scope, Project: in.Project, Path: in.Path, Name: in.Name,
			Root: in.Root, SharedWith: in.SharedWith, Blocks: in.Blocks, Status: in.Status, Reason: in.Reason,
		})
	}
	for _, s := range r.Services {
		e, loc := s.Entry, s.Location
		out.Services = append(out.Services, ReportEntry{
			Tool: loc.Tool, Scope: loc.Scope, Project: loc.Project, File: loc.File,
			Name: ShownName(e.Name), Transport: e.Transport, Command: mask.Value(e.Command),
			Args: mask.ShownList(e.Args), Env: mask.ShownMap(e.Env), URL: mask.Shown("url", e.URL),
			Headers: mask.ShownMap(e.Headers), Enabled: e.Enabled, Status: s.Status, Reason: s.Reason, Sees: s.Sees,
		})
	}
	for _, k := range r.Skills {
		out.Skills = append(out.Skills, ReportSkill{
			Tool: k.Tool, Scope: k.Scope, Project: k.Project, Dir: k.Dir, Name: k.Name,
			Status: k.Status, Reason: k.Reason, Link: k.Link, Path: k.Path, ReadOnly: k.ReadOnly, Note: k.Note,
		})
	}
	for _, e := range r.Errors {
		out.Errors = append(out.Errors, ReportError{Tool: e.Tool, File: e.File, Error: mask.Value(e.Err.Error())})
	}
	for _, m := range r.Moves {
		out.Moves = append(out.Moves, ReportMove{From: m.From, To: m.To, Scope: m.Scope, Project: m.Project,
			Name: ShownName(m.Name), Declared: m.Service != "" || m.Hub, Link: m.Link(), Cannot: mask.Value(m.Cannot)})
	}
	return out
}

// ShownName shows an entry name for a person: as it is when it is safe,
// quoted (control characters escaped) when it is hostile: not a name
// chronicle can adopt, or holding characters a terminal acts on.
func ShownName(name string) string {
	if SafeName(name) {
		return ShownText(name)
	}
	return strconv.Quote(name)
}

// ShownText shows text read from a tool file — an argument, a command, a
// folder's name — for a person: as it is, or quoted with Go's escapes
// when it holds a character that is not printable (a control character
// such as ESC or CR, a bidirectional override, bytes that are not UTF-8),
// which could recolour, move or overwrite what a terminal shows.
func ShownText(s string) string {
	for _, r := range s {
		if r == utf8.RuneError || !unicode.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}
