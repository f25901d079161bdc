package hashcache

import (
	"testing"
	"time"
)

// On a filesystem of whole-second timestamps (HFS+, ext3, FAT, many NFS
// servers) a file stamped 10.0 s may have been written at 10.9 s: a cache
// written at 10.5 s must not serve it, and a file stamped 10.0 s hashed at
// 10.5 s must not be recorded, since a rewrite at 10.8 s keeps its times.
func TestCoarseTimestampsAreTrustedOnlyAWholeUnitLater(t *testing.T) {
	at := func(s float64) int64 { return int64(s * float64(time.Second)) }
	coarse := key{dev: 1, ino: 2, size: 3, mtime: at(10), ctime: at(10)}
	fine := key{dev: 1, ino: 4, size: 3, mtime: at(10) + 123, ctime: at(10) + 4567}
	sum := [32]byte{1}

	c := &Cache{loaded: map[key][32]byte{coarse: sum, fine: sum}, used: map[key]bool{}, added: map[key][32]byte{}}
	c.written = at(10.5)
	if _, ok := c.lookup(coarse); ok {
		t.Error("a file stamped 10 s on a filesystem of seconds was trusted by a cache written at 10.5 s")
	}
	if _, ok := c.lookup(fine); !ok {
		t.Error("a file stamped in nanoseconds half a second before the cache was written was not trusted")
	}
	c.written = at(12)
	if _, ok := c.lookup(coarse); !ok {
		t.Error("a file stamped 10 s was not trusted by a cache written two seconds later")
	}

	c.add(coarse, sum, time.Unix(0, at(10.5)))
	c.add(fine, sum, time.Unix(0, at(10.5)))
	if _, ok := c.added[coarse]; ok {
		t.Error("a file stamped 10 s, hashed at 10.5 s, was recorded: a rewrite at 10.8 s would keep its times")
	}
	if _, ok := c.added[fine]; !ok {
		t.Error("a file stamped in nanoseconds half a second before it was hashed was not recorded")
	}
	c.add(coarse, sum, time.Unix(0, at(12.1)))
	if _, ok := c.added[coarse]; !ok {
		t.Error("a file stamped 10 s, hashed at 12.1 s, was not recorded")
	}
}

func TestGranule(t *testing.T) {
	for _, tc := range []struct {
		mtime, ctime, want int64
	}{
		{1_700_000_000_123_456_789, 1_700_000_000_223_456_781, 1},
		{1_700_000_000_123_456_780, 1_700_000_000_223_456_700, 10},
		{1_700_000_000_120_000_000, 1_700_000_000_230_000_000, 10_000_000}, // exFAT's 10 ms
		{1_700_000_000_000_000_000, 1_700_000_001_000_000_000, 2_000_000_000},
		{1_700_000_000_000_000_000, 1_700_000_001_000_000_001, 1},
	} {
		if got := (key{mtime: tc.mtime, ctime: tc.ctime}).granule(); got != tc.want {
			t.Errorf("granule of %d, %d = %d, want %d", tc.mtime, tc.ctime, got, tc.want)
		}
	}
}
