package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/chronicle-dev/chronicle/engine/machine"
)

const machineConfig = `
variable "dir" {
  type    = string
  default = "default"
}
variable "token" {
  sensitive = true
  default   = ""
}
service "s" {
  command = "run"
  args    = [var.dir, machine.name, machine.os, join(",", machine.tags), join(",", machine.tools), local.where]
}
locals {
  where = contains(machine.tools, "mine") ? "with-mine" : "without-mine"
}
tool "mine" {
  format      = "json"
  config      = "~/.mine.json"
  servers_key = "servers"
}
`

func parseFile(t *testing.T, name, src string) *machine.File {
	t.Helper()
	f, diags := machine.Parse(name, []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return f
}

// TestVariablePrecedence: later wins — default, machine file,
// CHRONICLE_VAR_, --var-file (in order), --var.
func TestVariablePrecedence(t *testing.T) {
	mf := parseFile(t, "/m/machine.hcl", "dir = \"machine\"\n")
	fileA := parseFile(t, "a.tfvars", "dir = \"file-a\"\n")
	fileB := parseFile(t, "b.tfvars", "dir = \"file-b\"\n")
	for _, tc := range []struct {
		name       string
		mf         *machine.File
		env        map[string]string
		files      []*machine.File
		vars       map[string]string
		want, from string
	}{
		{"default", nil, nil, nil, nil, "default", "default"},
		{"machine file", mf, nil, nil, nil, "machine", "machine file /m/machine.hcl:1"},
		{"env over machine file", mf, map[string]string{"CHRONICLE_VAR_dir": "env"}, nil, nil, "env", "env CHRONICLE_VAR_dir"},
		{"var-file over env", mf, map[string]string{"CHRONICLE_VAR_dir": "env"}, []*machine.File{fileA}, nil, "file-a", "--var-file a.tfvars:1"},
		{"later var-file wins", mf, nil, []*machine.File{fileA, fileB}, nil, "file-b", "--var-file b.tfvars:1"},
		{"--var over all", mf, map[string]string{"CHRONICLE_VAR_dir": "env"}, []*machine.File{fileA, fileB}, map[string]string{"dir": "flag"}, "flag", "--var"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, diags := loadMachine(t, machineConfig, Options{MachineFile: tc.mf, VarFiles: tc.files, Vars: tc.vars,
				Getenv: func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok }})
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			v := cfg.Variables[0]
			if v.Shown != `"`+tc.want+`"` || v.Source != tc.from {
				t.Errorf("var.dir = %s from %q, want %q from %q", v.Shown, v.Source, tc.want, tc.from)
			}
			if got := cfg.Services[0].Args[0].String(); got != tc.want {
				t.Errorf("args[0] = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestMachineFacts(t *testing.T) {
	home := t.TempDir()
	facts := machine.Facts{Name: "work-laptop", OS: "linux", Tags: []string{"work", "gpu"}, Tools: []string{"cursor"}}
	present := func(tl *Tool) bool { _, err := os.Stat(tl.Config); return err == nil }
	args := func(cfg *Config) string {
		var out []string
		for _, a := range cfg.Services[0].Args {
			out = append(out, a.String())
		}
		return strings.Join(out, " ")
	}
	cfg, diags := loadMachine(t, machineConfig, Options{Home: home, Machine: facts, Present: present})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if got, want := args(cfg), "default work-laptop linux gpu,work cursor without-mine"; got != want {
		t.Errorf("args = %q, want %q", got, want)
	}
	// A tool block's tool is present once its config file exists, and a
	// local sees it.
	if err := os.WriteFile(filepath.Join(home, ".mine.json"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, diags = loadMachine(t, machineConfig, Options{Home: home, Machine: facts, Present: present})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if got, want := args(cfg), "default work-laptop linux gpu,work cursor,mine with-mine"; got != want {
		t.Errorf("args = %q, want %q", got, want)
	}
	if got := strings.Join(cfg.Machine.Tools, ","); got != "cursor,mine" {
		t.Errorf("cfg.Machine.Tools = %s", got)
	}
}

func TestMachineFileChecks(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		severity  hcl.DiagnosticSeverity
		want      string
	}{
		{"unknown variable", "dri = \"x\"\n", hcl.DiagWarning, `m.hcl:1 sets "dri", but the configuration declares no variable "dri"; the value is not used. Did you mean "dir"?`},
		{"plain secret", "token = \"hunter2\"\n", hcl.DiagError, `The machine file holds "token" in plain text.`},
		{"wrong type", "dir = [\"a\"]\n", hcl.DiagError, `The value of "dir" from the machine file does not match its type`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := loadMachine(t, machineConfig, Options{MachineFile: parseFile(t, "m.hcl", tc.src)})
			found := false
			for _, d := range diags {
				if d.Severity == tc.severity && strings.Contains(d.Detail, tc.want) {
					found = true
				}
			}
			if !found {
				t.Errorf("no diagnostic %q in %v", tc.want, diags)
			}
		})
	}
	cfg, diags := loadMachine(t, machineConfig, Options{MachineFile: parseFile(t, "m.hcl", `token = secret("env:GH_TOKEN")`+"\n")})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if v := cfg.Variables[1]; v.Shown != "(sensitive)" || v.Source != "machine file m.hcl:1" {
		t.Errorf("var.token = %s from %s", v.Shown, v.Source)
	}
}

func loadMachine(t *testing.T, src string, opts Options) (*Config, hcl.Diagnostics) {
	t.Helper()
	if opts.Home == "" {
		opts.Home = t.TempDir()
	}
	if opts.Getenv == nil {
		opts.Getenv = func(string) (string, bool) { return "", false }
	}
	opts.KnownTools = testTools
	cfg, _, diags := LoadSource(t.TempDir(), "chronicle.hcl", []byte(src), opts)
	return cfg, diags
}
