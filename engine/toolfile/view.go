package toolfile

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"sync"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/provider"
)

// A File is one tool file as a View read it.
type File struct {
	Path   string
	Exists bool
	Data   []byte
	// Info describes the file (through a symlink), when it exists.
	Info fs.FileInfo
	// Err is why the file could not be read (other than not existing).
	Err error

	// hash is "absent" or "unreadable", else the hash of Data once
	// something asked for it (Hash).
	hash     string
	hashOnce sync.Once
}

// Hash returns the hash of the file's bytes, Absent for a file that does
// not exist, "unreadable" for one that could not be read. It is computed
// the first time it is asked for: most tool files a plan reads are only
// parsed, and a heavy user's ~/.claude.json is tens of megabytes.
func (f *File) Hash() string {
	f.hashOnce.Do(func() {
		if f.hash == "" && f.Exists {
			f.hash = Hash(f.Data)
		}
	})
	if f.hash == "" {
		return Absent
	}
	return f.hash
}

// A View reads tool files through a Reader, each at most once, and parses
// each with its tool's provider at most once. It implements provider.Files.
// A View is safe for concurrent use.
type View struct {
	r fsys.Reader

	mu     sync.Mutex
	files  map[string]*File
	docs   map[string]docResult
	parsed map[string]parsedResult
}

type docResult struct {
	doc     provider.Document
	listing *Listing
	err     error
}

type parsedResult struct {
	v   any
	err error
}

var _ provider.Files = (*View)(nil)

// NewView returns a View reading through r.
func NewView(r fsys.Reader) *View {
	return &View{r: r, files: map[string]*File{}, docs: map[string]docResult{}, parsed: map[string]parsedResult{}}
}

// Reader returns the reader the View reads through.
func (v *View) Reader() fsys.Reader { return v.r }

// File returns the file at path, reading it the first time.
func (v *View) File(path string) *File {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.file(path)
}

func (v *View) file(path string) *File {
	if f, ok := v.files[path]; ok {
		return f
	}
	f := &File{Path: path}
	data, err := v.r.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// A link whose target is missing is no missing file: a tool
		// writing the file would write through it, and chronicle never
		// does (safefile refuses a dangling link), so it is unreadable.
		if target, lerr := v.r.Readlink(path); lerr == nil {
			f.Err, f.hash = fmt.Errorf("a symlink to %s, which does not exist: chronicle does not write through a dangling link (remove the link, or create its target)", target), "unreadable"
		}
	case err != nil:
		f.Err = err
		f.hash = "unreadable"
	default:
		f.Exists, f.Data = true, data
		f.Info, f.Err = StatSettled(v.r, path)
	}
	v.files[path] = f
	return f
}

// Absent is the hash of a file that does not exist.
const Absent = "absent"

// Hash returns the hash of a file's bytes as plans and states record it.
func Hash(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Document returns p's parse of the file at path (an empty document when
// the file does not exist), parsing it the first time.
func (v *View) Document(p provider.Provider, path string) (provider.Document, *File, error) {
	r, f := v.document(p, path)
	return r.doc, f, r.err
}

func (v *View) document(p provider.Provider, path string) (docResult, *File) {
	v.mu.Lock()
	f := v.file(path)
	key := p.Name() + "\x00" + path
	r, ok := v.docs[key]
	v.mu.Unlock()
	if ok {
		return r, f
	}
	if f.Err != nil {
		r.err = fmt.Errorf("%s: %w", path, f.Err)
	} else if r.doc, r.err = p.Parse(path, f.Data); r.err == nil {
		r.listing = NewListing(r.doc, v)
	}
	v.mu.Lock()
	if done, ok := v.docs[key]; ok {
		r = done // parsed meanwhile by another goroutine: one listing per document
	} else {
		v.docs[key] = r
	}
	v.mu.Unlock()
	return r, f
}

// Entries returns the entries at loc, decoded once per location (see
// Listing). A file that does not exist is provider.ErrNotConfigured.
func (v *View) Entries(p provider.Provider, loc provider.Location) ([]provider.Entry, error) {
	r, f := v.document(p, loc.File)
	if r.err != nil {
		return nil, r.err
	}
	if !f.Exists {
		return nil, fmt.Errorf("%s: %w", loc.File, provider.ErrNotConfigured)
	}
	return r.listing.Entries(loc)
}

// Find returns the entry named name at loc (nil when there is none, or the
// file does not exist) and the file.
func (v *View) Find(p provider.Provider, loc provider.Location, name string) (*provider.Entry, *File, error) {
	r, f := v.document(p, loc.File)
	if r.err != nil || !f.Exists {
		return nil, f, r.err
	}
	e, err := r.listing.Find(loc, name)
	return e, f, err
}

// Parsed implements provider.Files.
func (v *View) Parsed(path string, parse func(path string, src []byte) (any, error)) (any, error) {
	v.mu.Lock()
	if r, ok := v.parsed[path]; ok {
		v.mu.Unlock()
		return r.v, r.err
	}
	f := v.file(path)
	v.mu.Unlock()
	var r parsedResult
	switch {
	case f.Err != nil:
		r.err = fmt.Errorf("%s: %w", path, f.Err)
	case f.Exists:
		r.v, r.err = parse(path, f.Data)
	}
	v.mu.Lock()
	v.parsed[path] = r
	v.mu.Unlock()
	return r.v, r.err
}
