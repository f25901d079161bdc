package main

import (
	"fmt"
	"os"

	"github.com/hashicorp/hcl/v2"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/machine"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers"
)

// machineInputs are what a configuration is evaluated with besides its own
// files: this machine's facts, its machine file and the --var-file files.
// They are read on every run, never cached.
type machineInputs struct {
	facts    machine.Facts
	file     *machine.File
	varFiles []*machine.File
	present  func(*config.Tool) bool
	diags    hcl.Diagnostics
	sources  map[string]*hcl.File
}

// machineInputs reads the machine file and the --var-file files and
// gathers the facts, the built-in tools present among them.
func (a *app) machineInputs(home string) (*machineInputs, error) {
	ch, err := a.chronicleHome()
	if err != nil {
		return nil, err
	}
	sys := fsys.ReadOnly(fsys.OS{})
	in := &machineInputs{sources: map[string]*hcl.File{}}
	f, diags := machine.Read(sys, machine.Path(ch))
	in.file, in.diags = f, diags
	in.sources[f.Path] = &hcl.File{Bytes: f.Bytes}
	for _, path := range a.varFiles {
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("--var-file %s: %w", path, err)
		}
		vf, diags := machine.Parse(path, src)
		in.varFiles = append(in.varFiles, vf)
		in.diags = append(in.diags, diags...)
		in.sources[path] = &hcl.File{Bytes: src}
	}
	env := provider.Env{Home: home, Getenv: os.LookupEnv}
	in.facts = machine.Gather(home, f)
	in.facts.Tools = providers.PresentNames(sys, env, providers.All(nil))
	in.present = func(t *config.Tool) bool { return providers.PresentTool(sys, env, t) }
	return in, nil
}

// options returns the loader options for home, vars and these inputs.
func (in *machineInputs) options(home string, vars map[string]string) config.Options {
	return config.Options{
		Home: home, Vars: vars, KnownTools: providers.Names(),
		VarFiles: in.varFiles, MachineFile: in.file, Machine: in.facts, Present: in.present,
	}
}
