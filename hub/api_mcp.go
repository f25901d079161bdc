package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/chronicle-dev/chronicle/hub/inspect"
	"github.com/chronicle-dev/chronicle/hub/wire"
)

// writeError answers {"error": msg} with status.
func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSONStatus(w, status, map[string]string{"error": msg})
}

// writeJSONStatus answers v as JSON with status. Only for answers that hold
// nothing from an upstream or a file (errors, lock holders): everything else
// goes through Hub.writeJSON, which masks.
func writeJSONStatus(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeMaskedError answers {"error": msg} with status, msg masked for a
// person (it may quote an upstream or a file).
func (h *Hub) writeMaskedError(w http.ResponseWriter, status int, msg string) {
	writeError(w, status, h.masker.Text(msg))
}

// livePollLimit bounds one long poll of the live log; the page asks again.
const livePollLimit = 25 * time.Second

// apiLiveLog is GET /api/mcp/log: every kept record, or with ?after=SEQ the
// records after SEQ, waiting (up to livePollLimit) until there is one.
func (h *Hub) apiLiveLog(w http.ResponseWriter, r *http.Request) {
	after := r.URL.Query().Get("after")
	if after == "" {
		inspect.WriteRecords(w, h.inspector.Records())
		return
	}
	seq, err := strconv.ParseUint(after, 10, 64)
	if err != nil {
		writeError(w, http.StatusBadRequest, "after must be a record's seq, a number")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), livePollLimit)
	defer cancel()
	inspect.WriteRecords(w, h.inspector.Since(ctx, seq))
}

var consoleCalls atomic.Int64

// apiMCPCall is POST /api/mcp/call: {"name": "<service>__<tool>",
// "arguments": {…}, "root": DIR, "profile": NAME}, through the one call path
// (policy, scope, timeout), recorded in the log as a client's tools/call is:
// a recv with the name and arguments, a send with the result.
func (h *Hub) apiMCPCall(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments"`
		Root      string         `json:"root"`
		Profile   string         `json:"profile"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Name == "" {
		if tooLarge := new(http.MaxBytesError); errors.As(err, &tooLarge) {
			bodyError(w, err)
			return
		}
		writeError(w, http.StatusBadRequest, `expected {"name": "<service>__<tool>", "arguments": {...}}`)
		return
	}
	ctx := context.WithValue(r.Context(), callingKey, in.Name)
	ep := endpoint{path: "/mcp"}
	if in.Profile != "" {
		if !h.hasProfile(in.Profile) {
			writeError(w, http.StatusNotFound, "no profile named "+in.Profile+" is defined")
			return
		}
		ep.path = "/mcp/profile/" + in.Profile
	}
	if in.Root != "" {
		if ep.root = wire.RootFromURI(in.Root); ep.root == "" {
			writeError(w, http.StatusBadRequest, "root must be an absolute folder, not "+in.Root)
			return
		}
		ctx = context.WithValue(ctx, rootKey, ep.root)
	}
	ctx = context.WithValue(ctx, endpointKey, ep)
	id := "console-" + strconv.FormatInt(consoleCalls.Add(1), 10)
	if b, err := json.Marshal(map[string]any{"id": id, "method": "tools/call", "params": map[string]any{"name": in.Name, "arguments": in.Arguments}, "via": "console"}); err == nil {
		h.inspector.Add(inspect.DirRecv, "", b)
	}
	res, err := h.call(ctx, &caller{ctx: ctx, via: "api"}, in.Name, in.Arguments, nil)
	if err != nil {
		status := http.StatusBadGateway
		if errors.Is(err, errNoTool) {
			status = http.StatusNotFound
		}
		if b, e := json.Marshal(map[string]any{"id": id, "error": err.Error(), "via": "console"}); e == nil {
			h.inspector.Add(inspect.DirSend, "", b)
		}
		h.writeMaskedError(w, status, err.Error())
		return
	}
	if b, err := json.Marshal(map[string]any{"id": id, "result": res, "via": "console"}); err == nil {
		h.inspector.Add(inspect.DirSend, "", b)
	}
	h.writeJSON(w, res)
}

// apiRestart is POST /api/mcp/services/NAME/restart: the upstream's process
// (or connection) is ended and started again at once. 200 with the
// service's status once it answers; 502 with it when it failed to start.
func (h *Hub) apiRestart(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if h.backend(name) == nil {
		writeError(w, http.StatusNotFound, "no service named "+name+" is offered")
		return
	}
	u := h.pool.pool.Get(name)
	if u == nil {
		writeError(w, http.StatusConflict, "the service "+name+" runs inside the hub: there is nothing to restart")
		return
	}
	h.inspector.Note("", "restart of "+name+" requested from the console")
	err := u.Restart(r.Context())
	var st ServiceStatus
	for _, s := range h.Status()["services"].([]ServiceStatus) {
		if s.Name == name {
			st = s
		}
	}
	if err != nil {
		h.writeJSONMasked(w, http.StatusBadGateway, map[string]any{"error": fmt.Sprintf("%s did not start again: %v", name, err), "service": st})
		return
	}
	h.writeJSON(w, st)
}

// writeJSONMasked is writeJSON with a status other than 200.
func (h *Hub) writeJSONMasked(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(inspect.ForPerson(h.masker, b), '\n'))
}

// apiScan is GET /api/mcp/scan: the document `chronicle scan --json`
// prints, for the configuration the state was applied from.
func (h *Hub) apiScan(w http.ResponseWriter, r *http.Request) {
	rv, ok := h.reviewFor(w, r)
	if ok {
		h.writeJSON(w, rv.Scan)
	}
}

// apiReview is GET /api/mcp/review: the takeover review (?wait=1 waits for
// a fresh one).
func (h *Hub) apiReview(w http.ResponseWriter, r *http.Request) {
	rv, ok := h.reviewFor(w, r)
	if ok {
		h.writeJSON(w, rv)
	}
}

func (h *Hub) reviewFor(w http.ResponseWriter, r *http.Request) (*Review, bool) {
	if h.opts.Workspace == nil {
		writeError(w, http.StatusServiceUnavailable, "this hub was started without the machine's tools: no scan")
		return nil, false
	}
	wait, _ := strconv.ParseBool(r.URL.Query().Get("wait"))
	rv, err := h.takeover(r.Context(), wait)
	if err != nil {
		writeError(w, http.StatusServiceUnavailable, "the review is still being computed: "+err.Error())
		return nil, false
	}
	return rv, true
}
