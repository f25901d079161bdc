package rpc

import "sync"

// A Flight is a request in flight: whom it is made for (nil: the hub
// itself), and its timeout.
type Flight struct {
	Caller any
	Timeout
}

// Flights are one upstream's requests in flight, by id. The zero value is
// ready; its methods are safe for concurrent use.
type Flights struct {
	mu sync.Mutex
	m  map[string]*Flight
}

// Track records f as request id until Untrack.
func (fs *Flights) Track(id string, f *Flight) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if fs.m == nil {
		fs.m = map[string]*Flight{}
	}
	fs.m[id] = f
}

// Untrack forgets request id.
func (fs *Flights) Untrack(id string) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	delete(fs.m, id)
}

// Attributed returns the one request in flight with a caller, and how many
// there are.
func (fs *Flights) Attributed() (*Flight, int) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	var one *Flight
	n := 0
	for _, f := range fs.m {
		if f.Caller != nil {
			one = f
			n++
		}
	}
	return one, n
}
