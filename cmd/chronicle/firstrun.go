package main

import "fmt"

// firstRun shows, on a machine without configuration, what adopt would take
// over. It writes nothing.
func (a *app) firstRun() error {
	dir, err := a.configDir()
	if err != nil {
		return err
	}
	p, errs, err := a.propose(nil, nil, dir, proposeOptions{})
	if err != nil {
		return err
	}
	m, err := a.workspace(nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "No configuration in %s (no *.hcl files), so chronicle manages nothing yet.\n\n", tildePath(m.home, dir))
	if p.Empty() {
		fmt.Fprintln(a.stdout, "The tools on this machine have no MCP servers or skills to adopt.")
	} else {
		fmt.Fprintln(a.stdout, "This is what `chronicle adopt` would take over:")
		fmt.Fprintln(a.stdout)
		writeProposal(a.stdout, p, m.home)
		fmt.Fprintf(a.stdout, "\nAdopt: %s, %s.\n", count(len(p.Services), "service", "services"), count(len(p.Skills), "skill", "skills"))
	}
	writeSkipped(a.stdout, p, errs)
	fmt.Fprintln(a.stdout, "\nTo start a configuration from this: chronicle init ~/dotfiles/chronicle")
	fmt.Fprintln(a.stdout, "(or chronicle adopt in an existing configuration directory). Nothing was changed.")
	return nil
}
