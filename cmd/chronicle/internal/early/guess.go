package early

import (
	"path/filepath"
	"strings"
)

// A Guess is what a command line will most likely read first.
type Guess struct {
	ConfigDir string // the configuration directory
	StatePath string // the state file; empty: not known
}

// reading lists the commands whose first step is reading the configuration
// and the state: the ones a head start pays for.
var reading = map[string]bool{"plan": true, "apply": true}

// valued lists the flags of plan and apply, and the global ones, that take
// a value as the next argument.
var valued = map[string]bool{
	"-C": true, "--chdir": true, "--home": true, "--var": true,
	"--out": true, "--replace": true, "--lock-timeout": true,
}

// GuessFrom reads the command line args (without the program's name) as the
// root command would — --chdir/-C, --home, $CHRONICLE_HOME, $HOME — for a
// command that reads the configuration and the state; nil for another
// command or a line it cannot read (--help, a plan file for apply). It may
// be wrong: it only picks what to read ahead.
func GuessFrom(args []string, getenv func(string) string, wd string) *Guess {
	var cmd, chdir, home string
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, value, hasValue := strings.Cut(a, "=")
		switch {
		case a == "--":
			return nil
		case a == "-h" || a == "--help":
			return nil
		case strings.HasPrefix(a, "-C") && len(a) > 2 && !hasValue:
			chdir = a[2:]
		case valued[name]:
			if !hasValue {
				if i+1 >= len(args) {
					return nil
				}
				i++
				value = args[i]
			}
			switch name {
			case "-C", "--chdir":
				chdir = value
			case "--home":
				home = value
			}
		case strings.HasPrefix(a, "-"):
			// a flag without a value
		case cmd == "":
			cmd = a
		default:
			return nil // apply PLANFILE: the plan is read, not the configuration
		}
	}
	if !reading[cmd] {
		return nil
	}
	g := &Guess{ConfigDir: wd}
	if chdir != "" {
		g.ConfigDir = absolute(chdir, wd)
	}
	switch {
	case home != "":
		g.StatePath = filepath.Join(absolute(home, wd), "state.json")
	case getenv("CHRONICLE_HOME") != "":
		g.StatePath = filepath.Join(absolute(getenv("CHRONICLE_HOME"), wd), "state.json")
	case getenv("HOME") != "":
		g.StatePath = filepath.Join(getenv("HOME"), ".chronicle", "state.json")
	}
	return g
}
