package inspect

import "context"

// Since returns the records after seq, sealed, oldest first, waiting until
// there is at least one or ctx ends (then none). This is the console's live
// log: a long poll, since a browser's EventSource cannot send the
// Authorization header a token needs. A seq above the newest record (the hub
// restarted and counts from 1 again) answers every kept record at once, so a
// page never waits on a count it will not see.
func (in *Inspector) Since(ctx context.Context, seq uint64) []Record {
	for {
		in.mu.Lock()
		if seq > in.next {
			seq = 0
		}
		kept := in.after(seq)
		if len(kept) > 0 {
			in.mu.Unlock()
			return in.records(kept)
		}
		if in.added == nil {
			in.added = make(chan struct{})
		}
		added := in.added
		in.mu.Unlock()
		select {
		case <-added:
		case <-ctx.Done():
			return []Record{}
		}
	}
}
