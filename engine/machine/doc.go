// Package machine owns what sets one machine apart from another that follows
// the same configuration: its facts (machine.* in every expression of the
// configuration: hostname, os, arch, user, home, name, tags, tools) and the
// machine file, ~/.chronicle/machine.hcl, which lives outside the repository
// and holds this machine's variable values and its machine { name, tags }.
//
// Facts are gathered on every run and never cached. Which tools are present
// is the providers' knowledge: the caller passes their names in.
package machine
