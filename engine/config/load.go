package config

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/zclconf/go-cty/cty"

	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/machine"
)

// Options are the inputs to Load besides the directory.
type Options struct {
	// Home is the home directory that ~ stands for. Required.
	Home string
	// Getenv reads the environment (CHRONICLE_VAR_*, env()); os.LookupEnv when nil.
	Getenv func(string) (string, bool)
	// Vars are the --var name=value pairs (the last of a name wins).
	Vars map[string]string
	// VarFiles are the --var-file files, in command-line order.
	VarFiles []*machine.File
	// MachineFile is ~/.chronicle/machine.hcl; nil or empty when missing.
	MachineFile *machine.File
	// Machine are the facts machine.* reads. Tools lists the built-in
	// tools present; Present says whether a tool block's tool is.
	Machine machine.Facts
	Present func(*Tool) bool
	// KnownTools are the built-in tool names a link may use; tool blocks add more.
	KnownTools []string
	// Checked remembers the files that passed the checks made before
	// parsing (checkSource), by content hash; nil: none.
	Checked Checked
}

// A Checked remembers, by SHA-256, the configuration files that passed the
// checks made before parsing (engine/hashcache.Checked).
type Checked interface {
	Passed(sum [32]byte) bool
	Add(sum [32]byte)
}

// A loader carries one Load call's inputs and results.
type loader struct {
	opts   Options
	cfg    *Config
	parser *hclparse.Parser
	diags  hcl.Diagnostics

	linkRanges map[*Link]linkRanges
	// absent holds the blocks whose when is false, by address.
	absent map[string]Absent
	// profileServices keeps where each profile's services were written.
	profileServices map[*Profile]hcl.Range
}

// rootSchema lists the top-level blocks of SPEC §3.
var rootSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "chronicle"},
		{Type: "variable", LabelNames: []string{"name"}},
		{Type: "locals"},
		{Type: "service", LabelNames: []string{"name"}},
		{Type: "policy", LabelNames: []string{"service"}},
		{Type: "skill", LabelNames: []string{"name"}},
		{Type: "link", LabelNames: []string{"name"}},
		{Type: "profile", LabelNames: []string{"name"}},
		{Type: "hub"},
		{Type: "chronova"},
		{Type: "tool", LabelNames: []string{"name"}},
		{Type: "rule", LabelNames: []string{"name"}},
		{Type: "command", LabelNames: []string{"name"}},
		{Type: "agent", LabelNames: []string{"name"}},
	},
}

// Files lists the *.hcl files of dir, sorted. A directory without any is
// not an error: chronicle then has no configuration.
func Files(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".hcl") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		files = append(files, filepath.Join(dir, e.Name()))
	}
	sort.Strings(files)
	return files, nil
}

// Load reads and decodes every *.hcl file in dir. The returned Config is
// never nil: it holds what could be decoded even when diags has errors.
// The parser is returned so diagnostics can be printed with source lines.
func Load(dir string, opts Options) (*Config, *hclparse.Parser, hcl.Diagnostics) {
	if opts.Getenv == nil {
		opts.Getenv = os.LookupEnv
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	l := &loader{opts: opts, cfg: &Config{Dir: abs, ServiceRanges: map[string]hcl.Range{}}, parser: hclparse.NewParser()}
	files, err := Files(abs)
	if err != nil {
		l.diags = append(l.diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Cannot read the configuration directory",
			Detail:   err.Error(),
		})
		return l.cfg, l.parser, l.diags
	}
	var bodies []hcl.Body
	for _, f := range files {
		l.cfg.Files = append(l.cfg.Files, f)
		src, diags := readSource(f)
		if diags.HasErrors() {
			l.diags = append(l.diags, diags...)
			continue
		}
		file, checked, diags := parseChecked(f, src, opts.Checked)
		l.diags = append(l.diags, diags...)
		if !checked {
			continue
		}
		l.parser.AddFile(f, file)
		if file != nil {
			bodies = append(bodies, file.Body)
		}
	}
	l.decode(bodies)
	return l.cfg, l.parser, l.diags
}

// LoadSource decodes configuration text held in memory, as if it were the
// only file of dir. Tests and fuzzing use it.
func LoadSource(dir, filename string, src []byte, opts Options) (*Config, *hclparse.Parser, hcl.Diagnostics) {
	if opts.Getenv == nil {
		opts.Getenv = os.LookupEnv
	}
	l := &loader{opts: opts, cfg: &Config{Dir: dir, ServiceRanges: map[string]hcl.Range{}}, parser: hclparse.NewParser()}
	l.cfg.Files = []string{filename}
	file, checked, diags := parseChecked(filename, src, opts.Checked)
	l.diags = append(l.diags, diags...)
	if !checked {
		return l.cfg, l.parser, l.diags
	}
	l.parser.AddFile(filename, file)
	if file != nil {
		l.decode([]hcl.Body{file.Body})
	}
	return l.cfg, l.parser, l.diags
}

// readSource reads a configuration file, refusing one over MaxFileSize
// before reading it.
func readSource(path string) ([]byte, hcl.Diagnostics) {
	fail := func(summary, detail string) hcl.Diagnostics {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: detail,
			Subject: &hcl.Range{Filename: path, Start: hcl.InitialPos, End: hcl.InitialPos}}}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fail("Cannot read a configuration file", err.Error())
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fail("Cannot read a configuration file", fmt.Sprintf("%s: %s", path, err))
	}
	return src, nil // checkSource reports a file longer than the limit
}

func (l *loader) decode(bodies []hcl.Body) {
	var blocks hcl.Blocks
	for _, body := range bodies {
		content, diags := body.Content(rootSchema)
		l.diags = append(l.diags, diags...)
		if content != nil {
			blocks = append(blocks, content.Blocks...)
		}
	}
	byType := map[string]hcl.Blocks{}
	for _, b := range blocks {
		byType[b.Type] = append(byType[b.Type], b)
	}

	vars := l.decodeVariables(byType["variable"])
	ctx := l.machineContext(byType, vars)

	l.decodeChronicle(ctx, l.single(byType["chronicle"]))
	l.decodeHub(ctx, l.single(byType["hub"]))
	l.decodeChronova(ctx, l.single(byType["chronova"]))
	// Every block is decoded and its references checked, whatever its
	// when says (validate checks them all); then the blocks absent on
	// this machine are left out of the configuration.
	l.absent = map[string]Absent{}
	l.decodeServices(l.instances(ctx, "service", l.unique(byType["service"], "service")))
	for _, in := range l.instances(ctx, "skill", l.unique(byType["skill"], "skill")) {
		l.decodeSkill(in)
	}
	for _, kind := range instruction.Kinds {
		for _, in := range l.instances(ctx, kind, l.unique(byType[kind], kind)) {
			l.decodeInstruction(kind, in)
		}
	}
	for _, in := range l.instances(ctx, "policy", l.unique(byType["policy"], "policy")) {
		l.decodePolicy(in)
	}
	l.profileServices = map[*Profile]hcl.Range{}
	for _, in := range l.instances(ctx, "profile", l.unique(byType["profile"], "profile")) {
		l.decodeProfile(in)
	}
	for _, in := range l.instances(ctx, "link", l.unique(byType["link"], "link")) {
		l.decodeLink(in)
	}
	l.checkReferences()
	l.leaveOutAbsent()
}

// machineContext decodes the tool blocks and the locals and returns the
// context every other block is decoded in: var, local and machine. Tool
// blocks decide which tools exist, so they see machine.tools as unknown; the
// locals are evaluated again once machine.tools is known (their first
// diagnostics are dropped, the second pass reports the same ones).
func (l *loader) machineContext(byType map[string]hcl.Blocks, vars map[string]cty.Value) *hcl.EvalContext {
	facts := l.opts.Machine
	facts.Tools = slices.Clone(facts.Tools)
	tools := l.unique(byType["tool"], "tool")
	if len(tools) > 0 {
		early := len(l.diags)
		locals := l.decodeLocals(byType["locals"], vars, facts.UnknownTools())
		l.diags = l.diags[:early]
		ctx := l.baseContext()
		ctx.Variables = map[string]cty.Value{"var": objectOf(vars), "local": objectOf(locals), "machine": facts.UnknownTools()}
		for _, b := range tools {
			l.decodeTool(ctx, b)
		}
		for _, t := range l.cfg.Tools {
			if l.opts.Present != nil && l.opts.Present(t) {
				facts.Tools = append(facts.Tools, t.Name)
			}
		}
	}
	sort.Strings(facts.Tools)
	facts.Tools = slices.Compact(facts.Tools)
	l.cfg.Machine = facts
	locals := l.decodeLocals(byType["locals"], vars, facts.Value())
	ctx := l.baseContext()
	ctx.Variables = map[string]cty.Value{"var": objectOf(vars), "local": objectOf(locals), "machine": facts.Value()}
	return ctx
}

func (l *loader) baseContext() *hcl.EvalContext {
	// env() registers the values it reads: blocks are decoded on every
	// core at once (decodeServices).
	var mu sync.Mutex
	seen := func(v string) {
		mu.Lock()
		defer mu.Unlock()
		l.cfg.Sensitive = append(l.cfg.Sensitive, v)
	}
	return &hcl.EvalContext{Functions: functions(l.opts.Home, l.cfg.Dir, l.opts.Getenv, seen)}
}

func (l *loader) decoder(ctx *hcl.EvalContext) *decoder {
	return &decoder{ctx: ctx, home: l.opts.Home, dir: l.cfg.Dir}
}

// decoderFor returns the decoder of an instance's body.
func (l *loader) decoderFor(in instance) *decoder {
	d := l.decoder(in.ctx)
	d.bare = in.bareBlock()
	return d
}

// finish moves a decoder's diagnostics into the loader.
func (l *loader) finish(d *decoder) {
	if d.bare != "" {
		eachOutside(d.diags, d.bare)
	}
	l.diags = append(l.diags, d.diags...)
}

// single returns the one block of a type that may appear once, reporting
// any further ones.
func (l *loader) single(blocks hcl.Blocks) *hcl.Block {
	if len(blocks) == 0 {
		return nil
	}
	for _, b := range blocks[1:] {
		l.diags = append(l.diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  fmt.Sprintf("Duplicate %s block", b.Type),
			Detail:   fmt.Sprintf("Only one %s block is allowed; the first is at %s.", b.Type, blocks[0].DefRange),
			Subject:  b.DefRange.Ptr(),
		})
	}
	return blocks[0]
}

// unique returns the blocks whose names are valid and not taken, reporting
// the others.
func (l *loader) unique(blocks hcl.Blocks, kind string) hcl.Blocks {
	seen := map[string]hcl.Range{}
	var out hcl.Blocks
	for _, b := range blocks {
		name := b.Labels[0]
		if kind != "policy" {
			if problem := checkName(kind, name); problem != "" {
				l.diags = append(l.diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  fmt.Sprintf("Invalid %s name", kind),
					Detail:   problem,
					Subject:  b.LabelRanges[0].Ptr(),
				})
				continue
			}
		}
		if first, dup := seen[name]; dup {
			l.diags = append(l.diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf("Duplicate %s %q", kind, name),
				Detail:   fmt.Sprintf("A %s named %q was already declared at %s. Each %s name must be unique across all files.", kind, name, first, kind),
				Subject:  b.LabelRanges[0].Ptr(),
			})
			continue
		}
		seen[name] = b.DefRange
		out = append(out, b)
	}
	return out
}
