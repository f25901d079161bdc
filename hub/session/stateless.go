package session

import (
	"sync"
	"sync/atomic"
)

// Stateless counts the 2026-07-28 requests per endpoint: that revision has
// no sessions, so /api/status shows its traffic this way.
type Stateless struct {
	counts sync.Map // endpoint key → *atomic.Int64
}

// Count counts one request on the endpoint key.
func (s *Stateless) Count(key string) {
	c, _ := s.counts.LoadOrStore(key, new(atomic.Int64))
	c.(*atomic.Int64).Add(1)
}

// Counts returns the requests counted per endpoint key.
func (s *Stateless) Counts() map[string]int64 {
	out := map[string]int64{}
	s.counts.Range(func(k, v any) bool {
		out[k.(string)] = v.(*atomic.Int64).Load()
		return true
	})
	return out
}
