package upstream

import (
	"time"

	"github.com/chronicle-dev/chronicle/engine/oauth"
)

// A Status describes one upstream for the hub's status pages. Error is
// masked: it never holds a resolved secret.
type Status struct {
	Name      string
	Transport string
	Enabled   bool
	State     State
	Error     string // why the upstream last failed; empty once it is ready again
	PID       int    // the running child's process id; 0 for none or a remote service
	Restarts  int
	Started   time.Time // when the current session started; zero when there is none
	Tools     int       // tools in the last listed catalog; 0 until listed
	// Login is, for a service with an oauth block, "login required" (it
	// failed for want of a usable login; LoginWhy says why) or "logged
	// in" (it runs with one); empty otherwise and before its first start.
	Login    string
	LoginWhy string
}

// Status returns the status of every upstream, sorted by name.
func (p *Pool) Status() []Status {
	ups := p.sorted()
	out := make([]Status, 0, len(ups))
	for _, u := range ups {
		out = append(out, u.Status())
	}
	return out
}

// Status returns the upstream's status.
func (u *Upstream) Status() Status {
	u.mu.Lock()
	defer u.mu.Unlock()
	st := Status{
		Name:      u.spec.Name,
		Transport: transportOf(u.spec),
		Enabled:   u.spec.Enabled,
		State:     u.state,
		Error:     u.lastErr,
		Restarts:  max(u.starts-1, 0),
	}
	switch {
	case u.spec.OAuth == nil:
	case u.needsLogin != "":
		st.Login, st.LoginWhy = oauth.LoginRequired, u.needsLogin
	case u.state == StateReady:
		st.Login = oauth.LoggedIn
	}
	if s := u.sess; s != nil {
		st.PID = s.pid()
		st.Started = s.started
		st.Tools = s.toolCount()
	}
	return st
}
