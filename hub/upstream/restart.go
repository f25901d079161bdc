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
