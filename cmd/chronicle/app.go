package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"

	"github.com/hashicorp/hcl/v2"
	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/hashcache"
	"github.com/chronicle-dev/chronicle/engine/lockfile"
	"github.com/chronicle-dev/chronicle/engine/machine"
	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/secret"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

// An app holds one invocation's streams and global flags.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// data is standard output for bytes that are data (MCP traffic on
	// stdio, formatted source): only the masker's registered values are
	// hidden in it.
	data io.Writer

	// ctx is the invocation's context, ended by Ctrl-C or SIGTERM: every
	// network call, git operation and lock wait takes it. It lives here
	// rather than in each signature because the commands share their
	// helpers (apply under sync, plan under sync --check).
	ctx context.Context

	chdir   string
	home    string // chronicle's own folder (--home, CHRONICLE_HOME, ~/.chronicle)
	noColor bool
	vars    []string
	// varFiles are the --var-file files, in command-line order.
	varFiles []string

	// masker is the process's masking authority: every secret value the
	// command learns is registered with it before any output can carry it.
	masker *mask.Masker

	// openURL opens an address in the user's browser (nil: the system's
	// opener); tests play the browser instead.
	openURL func(string) error
}

// newApp returns an app whose standard output and error pass through its
// masker: no value the masker knows and nothing shaped like a credential
// reaches either, whatever prints it.
func newApp(stdin io.Reader, stdout, stderr io.Writer) *app {
	m := mask.NewMasker()
	return &app{
		stdin: stdin, stdout: &mask.Writer{W: stdout, M: m}, stderr: &mask.Writer{W: stderr, M: m},
		data: &mask.DataWriter{W: stdout, M: m}, masker: m, ctx: context.Background(),
	}
}

// run executes the command line and returns the exit code. The first
// Ctrl-C (or SIGTERM) ends the invocation's context, so a clone, a fetch or
// a wait stops cleanly and leaves no temporary folder; a second one ends the
// process at once, as it would without chronicle's handler.
func (a *app) run(args []string) int {
	return a.execute(a.rootCommand(), args)
}

// execute is run with the root command made (Main makes it first, to pace
// the collector for the command it runs).
func (a *app) execute(root *cobra.Command, args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		stop() // restore the default action for the next signal
	}()
	a.ctx = ctx
	root.SetArgs(terraformFlags(args))
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	err := root.ExecuteContext(ctx)
	if err != nil && ctx.Err() != nil {
		defer fmt.Fprintln(a.stderr, "Interrupted: chronicle stopped before it finished.")
	}
	var exit *exitCodeError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &exit):
		if exit.msg != "" {
			fmt.Fprintf(a.stderr, "Error: %s\n", exit.msg)
		}
		return exit.code
	default:
		fmt.Fprintf(a.stderr, "Error: %s\n", err)
		return exitError
	}
}

var singleDashLong = regexp.MustCompile(`^-[a-z][a-z0-9]+(-[a-z0-9]+)*(=.*)?$`)

// terraformFlags accepts Terraform's single-dash spelling of long flags
// (-auto-approve, -out=plan) by rewriting it to the --name form. chronicle
// has no combined short flags, so nothing else is changed. Arguments after
// "--" are left alone.
func terraformFlags(args []string) []string {
	out := make([]string, 0, len(args))
	for i, arg := range args {
		if arg == "--" {
			return append(out, args[i:]...)
		}
		if singleDashLong.MatchString(arg) {
			arg = "-" + arg
		}
		out = append(out, arg)
	}
	return out
}

// userHome returns the home directory that ~ stands for.
func (a *app) userHome() (string, error) {
	h, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("cannot find the home directory: %w (set HOME)", err)
	}
	return h, nil
}

// chronicleHome returns chronicle's own folder: --home, $CHRONICLE_HOME, or ~/.chronicle.
func (a *app) chronicleHome() (string, error) {
	if a.home != "" {
		return filepath.Abs(a.home)
	}
	if h := os.Getenv("CHRONICLE_HOME"); h != "" {
		return filepath.Abs(h)
	}
	home, err := a.userHome()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".chronicle"), nil
}

// configDir returns the configuration directory: --chdir or the working directory.
func (a *app) configDir() (string, error) {
	if a.chdir != "" {
		return filepath.Abs(a.chdir)
	}
	return os.Getwd()
}

// color reports whether output to w may use colour.
func (a *app) color(w io.Writer) bool {
	if a.noColor || os.Getenv("NO_COLOR") != "" {
		return false
	}
	if mw, ok := w.(*mask.Writer); ok {
		w = mw.W
	}
	f, ok := w.(*os.File)
	return ok && isatty.IsTerminal(f.Fd())
}

// parseVars turns --var name=value flags into a map.
func (a *app) parseVars() (map[string]string, error) {
	vars := map[string]string{}
	for _, v := range a.vars {
		name, value, ok := strings.Cut(v, "=")
		if !ok || name == "" {
			return nil, fmt.Errorf("--var %q: write it as name=value", v)
		}
		vars[name] = value
	}
	return vars, nil
}

// loaded is a configuration with what is needed to report on it.
type loaded struct {
	cfg    *config.Config
	report *diagReport
	// checked remembers the configuration files that passed the checks
	// before parsing; apply and sync save it.
	checked *hashcache.Checked
	// lock is the configuration's lock file, nil when it has none; its
	// mistakes are in report.
	lock *lockfile.File
	// machine is this machine's file (~/.chronicle/machine.hcl), read
	// with the configuration: its ignore list goes to the plan.
	machine *machine.File
}

// loadConfig loads the configuration directory. It returns with
// report.HasErrors() set rather than an error for author mistakes.
func (a *app) loadConfig() (*loaded, error) {
	dir, err := a.configDir()
	if err != nil {
		return nil, err
	}
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("the configuration directory %s does not exist", dir)
	}
	home, err := a.userHome()
	if err != nil {
		return nil, err
	}
	vars, err := a.parseVars()
	if err != nil {
		return nil, err
	}
	var checked *hashcache.Checked
	if ch, err := a.chronicleHome(); err == nil {
		checked = hashcache.LoadChecked(filepath.Join(ch, hashcache.CheckedFileName))
	}
	in, err := a.machineInputs(home)
	if err != nil {
		return nil, err
	}
	opts := in.options(home, vars)
	opts.Checked = checked
	cfg, parser, diags := config.Load(dir, opts)
	a.masker.Add(cfg.Sensitive...)
	a.registerSecrets(cfg)
	files := sources(parser.Files())
	for name, f := range in.sources {
		files[name] = f
	}
	diags = append(in.diags, diags...)
	lock, src, lockDiags := lockfile.Load(fsys.OS{}, dir)
	if src != nil {
		files[lockfile.Path(dir)] = &hcl.File{Bytes: src}
	}
	diags = append(diags, lockDiags...)
	return &loaded{cfg: cfg, checked: checked, lock: lock, machine: in.file, report: &diagReport{diags: diags, files: files, masker: a.masker}}, nil
}

// sources keeps of each parsed file only its bytes, which is all a
// diagnostic's snippet shows: the syntax trees (tens of megabytes at
// thousands of services) are not kept alive for the rest of the command.
func sources(files map[string]*hcl.File) map[string]*hcl.File {
	out := make(map[string]*hcl.File, len(files))
	for name, f := range files {
		out[name] = &hcl.File{Bytes: f.Bytes}
	}
	return out
}

// registerSecrets resolves, best effort, every secret the configuration
// refers to and every value of ~/.chronicle/env, only to register them with
// the masker: a secret a tool's file holds in plain text is then hidden
// wherever chronicle would show it. A reference that does not resolve is not
// an error here.
func (a *app) registerSecrets(cfg *config.Config) {
	r := a.resolver()
	for _, ref := range cfg.SecretRefs() {
		if v, err := r.Resolve(secret.FromRef(ref)); err == nil {
			a.masker.Add(v)
		}
	}
	if r.EnvFile != "" {
		if vals, err := secret.ReadEnvFile(r.EnvFile); err == nil {
			for _, v := range vals {
				a.masker.Add(v)
			}
		}
	}
}

// commandName is the name of the command args run under root, resolved by
// cobra as execute resolves it; "" when they name none.
func commandName(root *cobra.Command, args []string) string {
	cmd, _, err := root.Find(terraformFlags(args))
	if err != nil {
		return ""
	}
	return cmd.Name()
}
