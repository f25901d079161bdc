package oauth

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/lock"
	"github.com/chronicle-dev/chronicle/engine/mask"
)

// lockTimeout bounds the wait for another process's refresh of the same
// record: a refresh is one request to the token endpoint.
const lockTimeout = 45 * time.Second

// A Store is the folder of records, ~/.chronicle/oauth/.
type Store struct {
	Dir string
	Sys fsys.System
	// Masker learns every secret value the store reads or writes.
	Masker *mask.Masker
	// Now is the clock (time.Now when nil): tests move it instead of
	// waiting for a token to expire.
	Now func() time.Time
}

// NewStore returns the store in home's oauth folder (home is chronicle's
// own folder, ~/.chronicle).
func NewStore(home string, sys fsys.System, m *mask.Masker) *Store {
	return &Store{Dir: filepath.Join(home, "oauth"), Sys: sys, Masker: m}
}

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// path returns the file of the record of (issuer, resource).
func (s *Store) path(issuer, resource string) string {
	return filepath.Join(s.Dir, fileName(issuer, resource))
}

// load reads the record at path; nil when there is none.
func (s *Store) load(path string) (*Record, error) {
	var r Record
	found, err := fsys.ReadJSON(s.Sys, path, &r)
	if err != nil || !found {
		return nil, err
	}
	s.Masker.Add(r.secrets()...)
	r.file = path
	return &r, nil
}

// save writes r to its file, atomically and 0600, its secrets registered
// with the masker before anything can print them.
func (s *Store) save(r *Record) error {
	s.Masker.Add(r.secrets()...)
	r.Updated = s.now().UTC()
	p := s.path(r.Issuer, r.Resource)
	if err := fsys.WriteJSON(s.Sys, p, r); err != nil {
		return err
	}
	// A record read from a file of another name (copied in by hand) now
	// lives under its own.
	old := r.file
	r.file = p
	if old != "" && old != p {
		return s.removeFile(old)
	}
	return nil
}

// remove forgets r. Its lock file stays: another process may hold it.
func (s *Store) remove(r *Record) error {
	p := r.file
	if p == "" {
		p = s.path(r.Issuer, r.Resource)
	}
	return s.removeFile(p)
}

func (s *Store) removeFile(p string) error {
	if err := s.Sys.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: %w", p, err)
	}
	return nil
}

// Records returns the records made for the server at url, oldest issuer
// first. A missing folder holds none.
func (s *Store) Records(url string) ([]*Record, error) {
	entries, err := s.Sys.ReadDir(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Dir, err)
	}
	var out []*Record
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		r, err := s.load(filepath.Join(s.Dir, e.Name()))
		if err != nil {
			return nil, err
		}
		if r != nil && sameURL(r.URL, url) {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b *Record) int { return a.Updated.Compare(b.Updated) })
	return out, nil
}

// Find returns the newest record for the server at url, nil when it has
// none.
func (s *Store) Find(url string) (*Record, error) {
	rs, err := s.Records(url)
	if err != nil || len(rs) == 0 {
		return nil, err
	}
	return rs[len(rs)-1], nil
}

// lock takes the record's file lock: every refresh and every login of
// (issuer, resource) holds it, in this process and every other.
func (s *Store) lock(ctx context.Context, issuer, resource string) (*lock.Lock, error) {
	if err := s.Sys.MkdirAll(s.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("%s: %w", s.Dir, err)
	}
	p := strings.TrimSuffix(s.path(issuer, resource), ".json") + ".lock"
	return lock.Acquire(ctx, p, "oauth refresh", lockTimeout)
}

// sameURL compares two server addresses as one: a final slash aside.
func sameURL(a, b string) bool {
	return strings.TrimSuffix(a, "/") == strings.TrimSuffix(b, "/")
}
