package early

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// Reads is what Start read ahead for one command.
type Reads struct {
	done   chan struct{}
	config map[string]parsed // by file name

	mu    sync.Mutex
	state *stateRead // nil once taken
}

type parsed struct {
	src   []byte
	file  *hcl.File
	diags hcl.Diagnostics
}

type stateRead struct {
	path string
	data []byte
	st   *state.State
	err  error
}

// started is what init started for this process's command line.
var started = startFromProcess()

func startFromProcess() *Reads {
	wd, err := os.Getwd()
	if err != nil {
		return nil
	}
	return Start(GuessFrom(os.Args[1:], os.Getenv, wd))
}

var taken sync.Once

// Take returns what init started reading for this process, to the first
// caller only (nil when the command line reads none of it).
func Take() *Reads {
	var r *Reads
	taken.Do(func() { r = started; started = nil })
	return r
}

// Start starts reading what g names on a goroutine and returns at once.
// Nil g: nothing.
func Start(g *Guess) *Reads {
	if g == nil {
		return nil
	}
	r := &Reads{done: make(chan struct{}), config: map[string]parsed{}}
	go func() {
		defer close(r.done)
		r.readConfig(g.ConfigDir)
		if g.StatePath != "" {
			data, err := os.ReadFile(g.StatePath)
			if err == nil {
				st, err := state.Read(g.StatePath, data)
				r.state = &stateRead{path: g.StatePath, data: data, st: st, err: err}
			}
		}
	}()
	return r
}

// readConfig parses the configuration files of dir that config.ParseAhead
// parses ahead.
func (r *Reads) readConfig(dir string) {
	files, err := config.Files(dir)
	if err != nil {
		return
	}
	for _, name := range files {
		if src, file, diags, ok := config.ParseAhead(name); ok {
			r.config[name] = parsed{src: src, file: file, diags: diags}
		}
	}
}

// ConfigFile returns the parse of the configuration file filename made
// ahead, when it was of exactly src (config.Options.Parsed). It waits for
// the reading to end.
func (r *Reads) ConfigFile(filename string, src []byte) (*hcl.File, hcl.Diagnostics, bool) {
	if r == nil {
		return nil, nil, false
	}
	<-r.done
	p, ok := r.config[filename]
	if !ok || !bytes.Equal(p.src, src) {
		return nil, nil, false
	}
	return p.file, p.diags, true
}

// State returns the state decoded ahead from the file at path when the file
// holds exactly the same bytes now (it reads them again: apply's caller
// holds the state lock, which init did not). Only the first call can have
// it: the state is the caller's to change.
func (r *Reads) State(path string) (st *state.State, ok bool, err error) {
	if r == nil {
		return nil, false, nil
	}
	<-r.done
	r.mu.Lock()
	s := r.state
	if s == nil || s.path != path {
		r.mu.Unlock()
		return nil, false, nil // another file's state stays for its reader
	}
	r.state = nil
	r.mu.Unlock()
	if now, err := os.ReadFile(path); err != nil || !bytes.Equal(now, s.data) {
		return nil, false, nil
	}
	return s.st, true, s.err
}

// absolute makes p absolute against wd.
func absolute(p, wd string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(wd, p)
}
