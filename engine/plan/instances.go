package plan

import "strings"

// absentNotes says once, for each reference the configuration dropped on
// this machine (a link naming a service whose when is false), what is left
// out here: a warning, never an error, since the block is declared and
// exists on other machines.
func (b *builder) absentNotes() {
	for _, d := range b.cfg.Dropped {
		b.note(d.From, "Absent on this machine: "+d.To, "%s", d.Detail)
	}
}

// origins marks each change of a for_each instance with the block and key
// it comes from (service.github["acme"]), so that the plan shows where a
// name it never saw written comes from.
func (b *builder) origins() {
	if len(b.cfg.Instances) == 0 {
		return
	}
	for i, c := range b.plan.Changes {
		b.plan.Changes[i].From = b.cfg.Instances[blockAddress(c.Address)]
	}
}

// blockAddress is the address of the block a change belongs to:
// link.orgs-acme for link.orgs-acme["claude"].service.github-acme.
func blockAddress(addr string) string {
	block, _, _ := strings.Cut(addr, "[")
	return block
}
