package poll

import (
	"bufio"
	"bytes"
	"io"
	"mime"
	"net/http"
	"strconv"
	"sync"

	clientsession "github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/wire"
)

// SSE polling (SEP-1699) passes through the hub: an upstream that ends a
// request's stream before the response, once it sent an event id, is
// resumed by mcp-go's client with a GET carrying Last-Event-ID; the hub
// ends its client's stream of the call at that moment too
// (session.Stream.Poll), so that the client polls the hub as it would the
// server (decision 0200).

// maxRetry is the longest reconnection time (SSE retry field, in
// milliseconds) the hub waits before it resumes an upstream's stream: 0,
// at once (mcp-go's client waits its minimum, 10 ms). The hub's own client
// is waiting on the other side, and the reference server replays a
// response to a resumed stream only if the stream is back before the
// response is ready (asked to wait its 5 s, the hub never got it).
const maxRetry = 0

// A Transport is the HTTP transport of a Streamable HTTP upstream: it
// watches each response stream of a call for its end before the response
// (pollingBody); Base makes the requests.
type Transport struct{ Base http.RoundTripper }

func (p Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := p.Base.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "text/event-stream" {
		return resp, nil
	}
	st := clientsession.StreamOf(req.Context())
	if st == nil {
		return resp, nil // the standalone GET stream, or a call nobody streams
	}
	resp.Body = &pollingBody{rc: resp.Body, r: bufio.NewReader(resp.Body), st: st}
	return resp, nil
}

// A pollingBody reads an upstream's event stream of a call: at its end,
// when it carried an event id and no response, the upstream polls (the
// client's stream ends too: Poll); a retry field longer than
// maxRetry is shortened to it.
type pollingBody struct {
	rc      io.ReadCloser
	r       *bufio.Reader
	st      clientsession.Stream
	pending []byte
	sawID   bool
	sawResp bool
	once    sync.Once
}

func (b *pollingBody) Read(p []byte) (int, error) {
	for len(b.pending) == 0 {
		line, err := b.r.ReadBytes('\n')
		b.pending = b.see(line)
		if err != nil {
			if len(b.pending) > 0 {
				break
			}
			if err == io.EOF && b.sawID && !b.sawResp {
				b.once.Do(func() { b.st.Poll() })
			}
			return 0, err
		}
	}
	n := copy(p, b.pending)
	b.pending = b.pending[n:]
	return n, nil
}

// see notes one line of the stream and returns it as the client reads it.
func (b *pollingBody) see(line []byte) []byte {
	field := bytes.TrimRight(line, "\r\n")
	switch {
	case bytes.HasPrefix(field, []byte("id:")):
		b.sawID = true
	case bytes.HasPrefix(field, []byte("data:")):
		if m := wire.Peek(bytes.TrimSpace(field[len("data:"):])); len(m.ID) > 0 && len(m.Method) == 0 {
			b.sawResp = true
		}
	case bytes.HasPrefix(field, []byte("retry:")):
		if ms, err := strconv.Atoi(string(bytes.TrimSpace(field[len("retry:"):]))); err == nil && ms > maxRetry {
			return []byte("retry: " + strconv.Itoa(maxRetry) + "\n")
		}
	}
	return line
}

func (b *pollingBody) Close() error { return b.rc.Close() }
