package apply

import (
	"fmt"

	"github.com/chronicle-dev/chronicle/engine/hubtoken"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/provider"
)

// edit is the edit an entry change makes to its tool's file. An entry that
// refers to the hub's token file (an HTTP hub entry) gets the file's
// content in the reference's place, the file made first when missing, by
// the code the hub uses (decision 0145): the tool needs the literal token,
// and the plan and the state keep only the reference.
func (a *applier) edit(c plan.Change) (provider.Edit, error) {
	path := ""
	if c.Entry != nil && c.Action != plan.Delete {
		path = c.Entry.HubToken
	}
	if path == "" {
		return plan.EditOf(c), nil
	}
	tok, err := hubtoken.Load(a.sys, path)
	if err != nil {
		return provider.Edit{}, fmt.Errorf("%s: the hub token: %w", c.Address, err)
	}
	return plan.EditWith(c, tok), nil
}
