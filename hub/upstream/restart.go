package upstream

import (
	"context"
	"time"
)

// Restart ends the upstream's session, if any (a stdio child's process
// group is stopped and reaped), and starts a new one at once, without the
// backoff a crash would wait out: a person asked for it. It returns the new
// start's error. A restart counts in Status().Restarts like a recovery.
func (u *Upstream) Restart(ctx context.Context) error {
	u.mu.Lock()
	if u.state == StateStopped {
		u.mu.Unlock()
		return u.errorf("stopped")
	}
	s := u.sess
	u.sess = nil
	u.failures, u.retryAt = 0, time.Time{}
	if u.starting == nil {
		u.state = StateIdle
	}
	u.mu.Unlock()
	if s != nil {
		s.close()
		u.opts.Logger.Info(u.spec.Name+": restarting on request", "service", u.spec.Name)
	}
	_, err := u.session(ctx)
	return err
}

// RetryLogins makes every failed upstream of a service with an oauth block
// start again at its next need, without waiting out its backoff, and
// returns their names, sorted: a login was just made or renewed (`chronicle
// auth login` wrote ~/.chronicle/oauth), and such a service most likely
// failed for want of one. Upstreams that run, or have not started, are left
// alone: a running one reads the store at its next refresh.
func (p *Pool) RetryLogins() []string {
	var names []string
	for _, u := range p.sorted() {
		if u.retryLogin() {
			names = append(names, u.spec.Name)
		}
	}
	return names
}

// retryLogin clears the backoff of a failed OAuth upstream; it reports
// whether there was one to clear.
func (u *Upstream) retryLogin() bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.spec.OAuth == nil || u.state != StateFailed || u.sess != nil || u.starting != nil {
		return false
	}
	u.failures, u.retryAt = 0, time.Time{}
	u.opts.Logger.Info(u.spec.Name+": a login changed; starting again at the next need", "service", u.spec.Name)
	return true
}
