package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/machine"
)

func (a *app) machineCommand() *cobra.Command {
	var set, tag, untag, ignore, unignore []string
	cmd := &cobra.Command{
		Use:   "machine",
		Short: "Show this machine's facts and variable values, or edit its machine file",
		Long: `machine prints what the configuration knows of this machine: its facts
(machine.hostname, os, arch, user, home, name, tags, tools) and every variable's
value with where it came from. Later wins: the variable's default, the machine
file (~/.chronicle/machine.hcl), CHRONICLE_VAR_<name>, --var-file, --var.
Sensitive values are masked.

--set, --tag and --untag edit the machine file, keeping its comments; it is
created with mode 0600. --set name=NEW sets machine { name } and records the
rename in the state: a plan on a machine whose name from the machine file
changed refuses until then (or --machine-renamed). A secret in it must be a reference:
--set 'token=secret("env:GITHUB_TOKEN")'.

--ignore ADDR leaves an address alone on this machine only (machine { ignore }):
chronicle neither writes nor removes it here, its difference from the
configuration is not a conflict, and every plan and sync says so in one line.
--unignore ADDR follows the configuration again. (chronicle state rm ADDR lets
go of it on every machine.)`,
		Example: `  chronicle machine
  chronicle machine --set project_dir=~/work --tag work
  chronicle machine --untag work
  chronicle machine --ignore 'link.everywhere["cursor"].service.jira'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if len(set) > 0 || len(tag) > 0 || len(untag) > 0 || len(ignore) > 0 || len(unignore) > 0 {
				return a.editMachineFile(set, tag, untag, machine.Edit{Ignore: ignore, Unignore: unignore})
			}
			return a.showMachine()
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&set, "set", nil, "set a variable in the machine file: `NAME=VALUE` (repeatable; VALUE is an HCL literal or taken as a string)")
	f.StringArrayVar(&tag, "tag", nil, "add `TAG` to machine { tags } (repeatable)")
	f.StringArrayVar(&untag, "untag", nil, "remove `TAG` from machine { tags } (repeatable)")
	f.StringArrayVar(&ignore, "ignore", nil, "leave `ADDR` alone on this machine: machine { ignore } (repeatable)")
	f.StringArrayVar(&unignore, "unignore", nil, "follow the configuration at `ADDR` again (repeatable)")
	return cmd
}

// showMachine prints the facts and, when there is a configuration, every
// variable with its value's source.
func (a *app) showMachine() error {
	home, err := a.userHome()
	if err != nil {
		return err
	}
	in, err := a.machineInputs(home)
	if err != nil {
		return err
	}
	facts, vars := in.facts, []*config.Variable(nil)
	l, err := a.optionalLoaded()
	if err != nil {
		return err
	}
	if l != nil {
		if l.report.HasErrors() {
			_ = l.report.writeText(a.stderr, a.color(a.stderr))
			return exitWith(exitError)
		}
		_ = l.report.writeWarnings(a.stderr, a.color(a.stderr))
		facts, vars = l.cfg.Machine, l.cfg.Variables
	} else if len(in.diags) > 0 {
		r := &diagReport{diags: in.diags, files: in.sources, masker: a.masker}
		_ = r.writeText(a.stderr, a.color(a.stderr))
		if r.HasErrors() {
			return exitWith(exitError)
		}
	}
	nameFrom := "the short hostname"
	if in.file.Name != "" {
		nameFrom = "machine file " + tildePath(home, in.file.Path)
	}
	fmt.Fprintln(a.stdout, facts.Header())
	w := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(w, "  machine.hostname\t%s\n", facts.Hostname)
	fmt.Fprintf(w, "  machine.os\t%s\n", facts.OS)
	fmt.Fprintf(w, "  machine.arch\t%s\n", facts.Arch)
	fmt.Fprintf(w, "  machine.user\t%s\n", facts.User)
	fmt.Fprintf(w, "  machine.home\t%s\n", facts.Home)
	fmt.Fprintf(w, "  machine.name\t%s\t(%s)\n", facts.Name, nameFrom)
	fmt.Fprintf(w, "  machine.tags\t%s\n", list(facts.Tags))
	fmt.Fprintf(w, "  machine.tools\t%s\t(tools whose config file exists, or whose program is on PATH)\n", list(facts.Tools))
	for _, addr := range in.file.Ignore {
		fmt.Fprintf(w, "  ignored\t%s\t(machine { ignore }: left alone on this machine)\n", addr)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	summary, _, st := a.lastSync(time.Now())
	fmt.Fprintf(a.stdout, "Last sync: %s\n", summary)
	if st != nil {
		a.writeSyncDetails(st)
	}
	a.showVariables(a.stdout, home, vars, l != nil)
	return nil
}

func (a *app) showVariables(out io.Writer, home string, vars []*config.Variable, haveConfig bool) {
	fmt.Fprintln(out)
	switch {
	case !haveConfig:
		fmt.Fprintln(out, "No configuration here: no variables to show (--chdir DIR names one).")
		return
	case len(vars) == 0:
		fmt.Fprintln(out, "The configuration declares no variables.")
		return
	}
	fmt.Fprintln(out, "Variables (later wins: default, machine file, CHRONICLE_VAR_name, --var-file, --var):")
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	for _, v := range vars {
		fmt.Fprintf(w, "  var.%s\t= %s\t%s\n", v.Name, v.Shown, tildeSource(home, v.Source))
	}
	_ = w.Flush()
}

// tildeSource writes the path inside a value's source with ~ for home.
func tildeSource(home, source string) string {
	kind, path, ok := strings.Cut(source, " /")
	if !ok {
		return source
	}
	return kind + " " + tildePath(home, "/"+path)
}

func list(ss []string) string {
	if len(ss) == 0 {
		return "(none)"
	}
	return strings.Join(ss, ", ")
}

// editMachineFile makes the --set, --tag and --untag edits, one after the
// other, in the machine file.
func (a *app) editMachineFile(set, tag, untag []string, ignore machine.Edit) error {
	ch, err := a.chronicleHome()
	if err != nil {
		return err
	}
	home, err := a.userHome()
	if err != nil {
		return err
	}
	path := machine.Path(ch)
	var edits []machine.Edit
	rename := ""
	for _, s := range set {
		name, value, ok := strings.Cut(s, "=")
		if !ok || name == "" {
			return failf("--set %q: write it as NAME=VALUE", s)
		}
		if name == "name" {
			// The machine's own name (machine { name }), not a variable.
			rename = strings.Trim(value, `"`)
			edits = append(edits, machine.Edit{Name: rename})
			continue
		}
		edits = append(edits, machine.Edit{Set: name, Value: value, Secret: a.declaredSensitive(name)})
	}
	if len(tag) > 0 || len(untag) > 0 {
		edits = append(edits, machine.Edit{Tag: tag, Untag: untag})
	}
	if len(ignore.Ignore) > 0 || len(ignore.Unignore) > 0 {
		edits = append(edits, ignore)
	}
	for _, e := range edits {
		if _, err := e.Apply(fsys.OS{}, path); err != nil {
			return failf("%s", err)
		}
	}
	fmt.Fprintf(a.stdout, "Updated %s.\n", tildePath(home, path))
	if rename != "" {
		return a.recordRename(rename)
	}
	return nil
}

// recordRename records in the state, under its lock, that this machine is
// now called name, on purpose: the next plan proceeds under it.
func (a *app) recordRename(name string) error {
	return a.locked("machine", 0, func(m *workspace) error {
		st, err := m.loadState()
		if err != nil || st.IsNew() {
			return err
		}
		old := ""
		if st.Machine != nil {
			old = st.Machine.Name
		}
		if !recordIdentity(st, machine.Facts{Name: name, NameFrom: machine.NamedByFile}) {
			return nil
		}
		if err := st.Save(m.statePath()); err != nil {
			return failf("%s", err)
		}
		if old != "" && old != name {
			fmt.Fprintf(a.stdout, "Recorded the rename from %s to %s in %s: the next plan proceeds under %s.\n", old, name, tildePath(m.home, m.statePath()), name)
		}
		return nil
	})
}

// declaredSensitive reports whether the configuration here, if any,
// declares the variable name sensitive.
func (a *app) declaredSensitive(name string) bool {
	l, err := a.optionalLoaded()
	if err != nil || l == nil {
		return false
	}
	for _, v := range l.cfg.Variables {
		if v.Name == name {
			return v.Sensitive
		}
	}
	return false
}
