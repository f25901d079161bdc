package transport

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/mark3labs/mcp-go/mcp"
)

// batchRevision is the one revision whose clients may send JSON-RPC batches
// over Streamable HTTP (2025-06-18 removed them).
const batchRevision = "2025-03-26"

// serveBatch answers a JSON-RPC batch: on 2025-03-26 it is split into single
// messages, each served as its own request, and the responses are returned
// as one JSON array; on any other revision it is an invalid request.
func (h *Transport) serveBatch(w http.ResponseWriter, r *http.Request, next http.Handler, body []byte, version string) {
	if version != batchRevision {
		writeRPCError(w, http.StatusBadRequest, nil, mcp.INVALID_REQUEST, "JSON-RPC batches are not allowed in protocol revision "+orUnstated(version)+" (only in "+batchRevision+")")
		return
	}
	var parts []json.RawMessage
	if err := json.Unmarshal(body, &parts); err != nil {
		writeRPCError(w, http.StatusBadRequest, nil, mcp.PARSE_ERROR, "the batch is not a JSON array")
		return
	}
	if len(parts) == 0 {
		// JSON-RPC 2.0 §6: an empty array is an invalid request, not a
		// parse error.
		writeRPCError(w, http.StatusBadRequest, nil, mcp.INVALID_REQUEST, "the batch is empty")
		return
	}
	responses := []json.RawMessage{}
	sid := r.Header.Get("Mcp-Session-Id")
	for _, p := range parts {
		sub := r.Clone(r.Context())
		sub.Body = http.NoBody
		sub.ContentLength = int64(len(p))
		sub.Body = nopReadCloser{bytes.NewReader(p)}
		rec := &recorder{header: http.Header{}}
		h.serveEndpoint(next, r.URL.Path).ServeHTTP(rec, sub)
		if sid == "" {
			sid = rec.header.Get("Mcp-Session-Id")
		}
		responses = append(responses, rec.messages()...)
	}
	if sid != "" {
		w.Header().Set("Mcp-Session-Id", sid)
	}
	if len(responses) == 0 {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(responses)
}

func orUnstated(v string) string {
	if v == "" {
		return "(none stated)"
	}
	return v
}

type nopReadCloser struct{ *bytes.Reader }

func (nopReadCloser) Close() error { return nil }

// A recorder keeps one sub-request's response of a batch.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) WriteHeader(status int)      { r.status = status }
func (r *recorder) Write(p []byte) (int, error) { return r.body.Write(p) }

// messages returns the JSON-RPC responses a sub-request got: its JSON body,
// or the responses among its SSE events.
func (r *recorder) messages() []json.RawMessage {
	b := bytes.TrimSpace(r.body.Bytes())
	if len(b) == 0 {
		return nil
	}
	if b[0] == '{' {
		return []json.RawMessage{json.RawMessage(b)}
	}
	var out []json.RawMessage
	for _, line := range bytes.Split(b, []byte("\n")) {
		data, ok := bytes.CutPrefix(line, []byte("data:"))
		if !ok {
			continue
		}
		data = bytes.TrimSpace(data)
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(data, &m) == nil && len(m.ID) > 0 && m.Method == "" {
			out = append(out, json.RawMessage(data))
		}
	}
	return out
}
