package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/providers"
)

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "chronicle",
		Short: "Declare, plan and apply the MCP servers and skills of every AI coding tool",
		Long: wrap("chronicle keeps the MCP servers, skills and policies of "+productList()+
			` in one HCL configuration. "plan" shows what differs from what the tools have, "apply" makes it so without destroying anything chronicle did not create, and "serve" runs one MCP hub for all of them.`, 80),
		Example: `  chronicle plan                 # what would change (or, with no config, what could be adopted)
  chronicle apply                # make it so, after a backup
  chronicle validate --chdir ~/dotfiles/chronicle`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version,
	}
	root.PersistentPreRun = func(cmd *cobra.Command, _ []string) { a.warnLastSync(cmd) }
	root.SetVersionTemplate("chronicle {{.Version}}\n")
	pf := root.PersistentFlags()
	pf.StringVarP(&a.chdir, "chdir", "C", "", "use `DIR` as the configuration directory (default: the working directory)")
	pf.StringVar(&a.home, "home", "", "chronicle's own folder (default: $CHRONICLE_HOME or ~/.chronicle)")
	pf.BoolVar(&a.noColor, "no-color", false, "never use colour (also: NO_COLOR=1)")
	pf.StringArrayVar(&a.vars, "var", nil, "set a variable: `name=value` (repeatable; also CHRONICLE_VAR_name)")
	pf.StringArrayVar(&a.varFiles, "var-file", nil, "read variable values from `FILE` (name = value lines; repeatable, later files win)")

	root.AddCommand(
		a.initCommand(),
		a.adoptCommand(),
		a.importCommand(),
		a.scanCommand(),
		a.validateCommand(),
		a.fmtCommand(),
		a.planCommand(),
		a.applyCommand(),
		a.showCommand(),
		a.stateCommand(),
		a.backupsCommand(),
		a.skillsCommand(),
		a.lockCommand(),
		a.toolsCommand(),
		a.syncCommand(),
		a.autostartCommand(),
		a.serveCommand(),
		a.chronovaCommand(),
		a.authCommand(),
		a.machineCommand(),
		a.doctorCommand(),
		a.versionCommand(),
	)
	root.CompletionOptions.HiddenDefaultCmd = false
	return root
}

// productList names every built-in tool as its vendor does, from
// providers.Products: "Claude Code, …, Amp and Junie".
func productList() string {
	var names []string
	for _, p := range providers.Products() {
		names = append(names, strings.ReplaceAll(p.Name, " ", nbsp)) // one name, never broken by wrap
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// nbsp holds a product's words together until wrap is done.
const nbsp = "\x00"

// wrap breaks text into lines of at most width columns between words; a
// name whose words are joined by nbsp stays on one line.
func wrap(text string, width int) string {
	var b strings.Builder
	line := 0
	for i, w := range strings.Fields(text) {
		switch {
		case i == 0:
		case line+1+len(w) > width:
			b.WriteByte('\n')
			line = 0
		default:
			b.WriteByte(' ')
			line++
		}
		b.WriteString(strings.ReplaceAll(w, nbsp, " "))
		line += len(w)
	}
	return b.String()
}
