package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/providers"
)

// TestExamplesValidate loads every configuration under examples/ and the
// annotated reference: each must be free of errors and, except for the
// reference's skill folder that only exists once copied, of warnings too.
func TestExamplesValidate(t *testing.T) {
	dirs, err := filepath.Glob("../../examples/*")
	if err != nil {
		t.Fatal(err)
	}
	ref := t.TempDir()
	src, err := os.ReadFile("../../chronicle.hcl.example")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ref, "chronicle.hcl"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(ref, "skills", "code-review"), 0o755)
	os.WriteFile(filepath.Join(ref, "skills", "code-review", "SKILL.md"), []byte("---\nname: code-review\ndescription: x\n---\n"), 0o644)
	dirs = append(dirs, ref)

	checked := 0
	for _, dir := range dirs {
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			cfg, _, diags := config.Load(dir, config.Options{
				Home:       t.TempDir(),
				Getenv:     func(string) (string, bool) { return "", false },
				KnownTools: providers.Names(),
			})
			if len(cfg.Files) == 0 {
				t.Fatalf("%s has no *.hcl files", dir)
			}
			if len(diags) > 0 {
				t.Fatalf("%s: %s", dir, diags.Error())
			}
			for _, f := range cfg.Files {
				src, _ := os.ReadFile(f)
				if out, _ := config.Format(f, src); string(out) != string(src) {
					t.Errorf("%s is not in canonical layout: run chronicle fmt", f)
				}
			}
			if len(cfg.Services)+len(cfg.Skills)+len(cfg.Links) == 0 {
				t.Fatalf("%s declares nothing", dir)
			}
		})
		checked++
	}
	if checked < 4 {
		t.Fatalf("checked %d configurations, want the reference and at least three examples", checked)
	}
}

// TestExamplesPlan plans every example on an empty home, offline (the team
// example's git skill is not fetched): each plans without an error.
func TestExamplesPlan(t *testing.T) {
	bin := chronicleBinary(t)
	dirs, _ := filepath.Glob("../../examples/*")
	// The annotated reference too, with the skill folder it names.
	ref := filepath.Join(t.TempDir(), "reference")
	src, _ := os.ReadFile("../../chronicle.hcl.example")
	os.MkdirAll(filepath.Join(ref, "skills", "code-review"), 0o755)
	os.WriteFile(filepath.Join(ref, "chronicle.hcl"), src, 0o644)
	os.WriteFile(filepath.Join(ref, "skills", "code-review", "SKILL.md"), []byte("---\nname: code-review\ndescription: Reviews.\n---\n"), 0o644)
	dirs = append(dirs, ref)
	for _, dir := range dirs {
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			abs, _ := filepath.Abs(dir)
			home := filepath.Join(t.TempDir(), "home")
			os.MkdirAll(home, 0o755)
			env := append(os.Environ(), "HOME="+home, "CHRONICLE_HOME=", "XDG_CONFIG_HOME=", "CODEX_HOME=",
				"PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
			cmd := exec.Command(bin, "plan", "--offline", "--detailed-exitcode", "--chdir", abs)
			cmd.Dir, cmd.Env = home, env
			out, err := cmd.CombinedOutput()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			if code != 2 || strings.Contains(string(out), "Error:") {
				t.Fatalf("plan of %s exited %d:\n%s", dir, code, out)
			}
			if !strings.Contains(string(out), "to add") {
				t.Fatalf("plan of %s shows nothing to add:\n%s", dir, out)
			}
		})
	}
}
