package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/textdiff"
)

func (a *app) fmtCommand() *cobra.Command {
	var check, diff bool
	cmd := &cobra.Command{
		Use:   "fmt [FILE|DIR|-]...",
		Short: "Rewrite configuration files in canonical HCL layout",
		Long: `fmt rewrites *.hcl files in the canonical layout (hclwrite): aligned equals
signs, two-space indents. With no arguments it formats the configuration
directory. "-" formats standard input to standard output. Files that do not
parse are reported and left untouched.

Exit codes: 0 done (or nothing to change), 1 a file did not parse,
3 with --check when a file would change.`,
		Example: `  chronicle fmt
  chronicle fmt --check --diff
  chronicle fmt examples/team/chronicle.hcl`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 && args[0] == "-" {
				return a.fmtStdin(check, diff)
			}
			files, err := a.fmtTargets(args)
			if err != nil {
				return err
			}
			changed, broken := 0, false
			for _, f := range files {
				c, err := a.fmtFile(f, check, diff)
				if err != nil {
					broken = true
					continue
				}
				if c {
					changed++
				}
			}
			switch {
			case broken:
				return exitWith(exitError)
			case check && changed > 0:
				return exitWith(exitFormat)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&check, "check", false, "change nothing; exit 3 when a file would change")
	cmd.Flags().BoolVar(&diff, "diff", false, "print the changes as unified diffs")
	return cmd
}

// fmtTargets expands the arguments into files: a directory stands for its
// *.hcl files, and no argument for the configuration directory.
func (a *app) fmtTargets(args []string) ([]string, error) {
	if len(args) == 0 {
		dir, err := a.configDir()
		if err != nil {
			return nil, err
		}
		args = []string{dir}
	}
	var files []string
	for _, arg := range args {
		info, err := os.Stat(arg)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", arg, unwrapPath(err))
		}
		if !info.IsDir() {
			files = append(files, arg)
			continue
		}
		fs, err := config.Files(arg)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", arg, err)
		}
		files = append(files, fs...)
	}
	return files, nil
}

// fmtFile formats one file and reports whether it changed (or would).
func (a *app) fmtFile(path string, check, diff bool) (bool, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(a.stderr, "Error: %s: %s\n", path, unwrapPath(err))
		return false, err
	}
	out, diags := config.Format(path, src)
	if diags.HasErrors() {
		a.writeSyntaxDiags(path, src, diags)
		return false, diags
	}
	if string(out) == string(src) {
		return false, nil
	}
	fmt.Fprintln(a.stdout, displayPath(path))
	if diff {
		fmt.Fprint(a.stdout, textdiff.Unified("old/"+filepath.Base(path), "new/"+filepath.Base(path), string(src), string(out)))
	}
	if !check {
		if err := (fsys.OS{}).WriteFile(path, out, 0o644); err != nil {
			fmt.Fprintf(a.stderr, "Error: %s\n", err)
			return true, err
		}
	}
	return true, nil
}

func (a *app) fmtStdin(check, diff bool) error {
	src, err := io.ReadAll(a.stdin)
	if err != nil {
		return err
	}
	out, diags := config.Format("<stdin>", src)
	if diags.HasErrors() {
		a.writeSyntaxDiags("<stdin>", src, diags)
		return exitWith(exitError)
	}
	switch {
	case diff:
		fmt.Fprint(a.stdout, textdiff.Unified("old/<stdin>", "new/<stdin>", string(src), string(out)))
	case !check:
		a.data.Write(out)
	}
	if check && string(out) != string(src) {
		return exitWith(exitFormat)
	}
	return nil
}

func (a *app) writeSyntaxDiags(path string, src []byte, diags hcl.Diagnostics) {
	r := &diagReport{diags: diags, files: map[string]*hcl.File{path: {Bytes: src}}, masker: &mask.Masker{}}
	_ = r.writeText(a.stderr, a.color(a.stderr))
}

func displayPath(p string) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, p); err == nil && filepath.IsLocal(rel) {
			return rel
		}
	}
	return p
}

func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
