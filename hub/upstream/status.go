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
	// failed for want of a usable login, or a request was refused for
	// want of a scope; LoginWhy says why) or "logged in" (it runs with
	// one); before its first start, what the store holds. Empty for other
	// services.
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

// Status returns the upstream's status. An OAuth service that has not
// started yet shows the login the store holds for it (read from disk,
// never from a server), so the console offers its Log in at once.
func (u *Upstream) Status() Status {
	st := u.status()
	if st.Login == "" && st.State == StateIdle && u.spec.OAuth != nil && u.opts.OAuth != nil {
		if svc, err := u.LoginService(); err == nil {
			if ls, err := u.opts.OAuth.Status(svc.Name, svc.URL); err == nil {
				st.Login = ls.Status
				if ls.Status == oauth.LoginRequired {
					st.LoginWhy = ls.Why
				}
			}
		}
	}
	return st
}

func (u *Upstream) status() Status {
	u.mu.Lock()
	defer u.mu.Unlock()
	st := Status{
		Name:      u.spec.Name,
		Transport: u.spec.Via(),
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
