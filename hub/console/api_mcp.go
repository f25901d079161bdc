package console

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/chronicle-dev/chronicle/hub/catalog"
	"github.com/chronicle-dev/chronicle/hub/inspect"
	"github.com/chronicle-dev/chronicle/hub/wire"
)

// writeMaskedError answers {"error": msg} with status, msg masked for a
// person (it may quote an upstream or a file).
func (h *API) writeMaskedError(w http.ResponseWriter, status int, msg string) {
	wire.WriteError(w, status, h.masker.Text(msg))
}

// LivePollLimit bounds one long poll of the live log; the page asks again.
const LivePollLimit = 25 * time.Second

// LiveLog is GET /api/mcp/log: every kept record, or with ?after=SEQ the
// records after SEQ, waiting (up to LivePollLimit) until there is one.
func (h *API) LiveLog(w http.ResponseWriter, r *http.Request) {
	after := r.URL.Query().Get("after")
	if after == "" {
		inspect.WriteRecords(w, h.inspector.Records())
		return
	}
	seq, err := strconv.ParseUint(after, 10, 64)
	if err != nil {
		wire.WriteError(w, http.StatusBadRequest, "after must be a record's seq, a number")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), LivePollLimit)
	defer cancel()
	inspect.WriteRecords(w, h.inspector.Since(ctx, seq))
}

var consoleCalls atomic.Int64

// CallTool is POST /api/mcp/call: {"name": "<service>__<tool>",
// "arguments": {…}, "root": DIR, "profile": NAME}, through the one call path
// (policy, scope, timeout), recorded in the log as a client's tools/call is:
// a recv with the name and arguments, a send with the result.
func (h *API) CallTool(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments"`
		Root      string         `json:"root"`
		Profile   string         `json:"profile"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Name == "" {
		if tooLarge := new(http.MaxBytesError); errors.As(err, &tooLarge) {
			wire.BodyError(w, err)
			return
		}
		wire.WriteError(w, http.StatusBadRequest, `expected {"name": "<service>__<tool>", "arguments": {...}}`)
		return
	}
	id := "console-" + strconv.FormatInt(consoleCalls.Add(1), 10)
	if b, err := json.Marshal(map[string]any{"id": id, "method": "tools/call", "params": map[string]any{"name": in.Name, "arguments": in.Arguments}, "via": "console"}); err == nil {
		h.inspector.Add(inspect.DirRecv, "", b)
	}
	res, err := h.hub.Call(r.Context(), Call(in))
	if err != nil {
		status := http.StatusBadGateway
		switch {
		case errors.Is(err, catalog.ErrNoTool), errors.Is(err, ErrNoProfile):
			status = http.StatusNotFound
		case errors.Is(err, ErrBadRoot):
			status = http.StatusBadRequest
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

// Restart is POST /api/mcp/services/NAME/restart: the upstream's process
// (or connection) is ended and started again at once. 200 with the
// service's status once it answers; 502 with it when it failed to start.
func (h *API) Restart(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	st, err := h.hub.Restart(r.Context(), name)
	switch {
	case errors.Is(err, ErrNoService):
		wire.WriteError(w, http.StatusNotFound, "no service named "+name+" is offered")
		return
	case errors.Is(err, ErrBuiltin):
		wire.WriteError(w, http.StatusConflict, "the service "+name+" runs inside the hub: there is nothing to restart")
		return
	}
	if err != nil {
		h.writeJSONMasked(w, http.StatusBadGateway, map[string]any{"error": fmt.Sprintf("%s did not start again: %v", name, err), "service": st})
		return
	}
	h.writeJSON(w, st)
}

// Login is POST /api/mcp/services/NAME/login: it starts the service's
// login (Hub.Login) and answers the authorization URL the console opens.
func (h *API) Login(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	start, err := h.hub.Login(r.Context(), name)
	switch {
	case errors.Is(err, ErrNoService):
		wire.WriteError(w, http.StatusNotFound, "no service named "+name+" is offered")
		return
	case errors.Is(err, ErrNoLogin):
		wire.WriteError(w, http.StatusConflict, h.masker.Text(fmt.Sprintf("%s has nothing to log in to: %v", name, err)))
		return
	case err != nil:
		wire.WriteError(w, http.StatusBadGateway, h.masker.Text(fmt.Sprintf("the login of %s did not start: %v", name, err)))
		return
	}
	// The URL is the browser's to open whole: Masker.Text's shape rules
	// would take its state and PKCE challenge for credentials. It holds no
	// secret (a client id, a challenge, a state); registered values are
	// still masked.
	start.AuthorizationURL = h.masker.Literal(start.AuthorizationURL)
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(start)
}

// writeJSONMasked is writeJSON with a status other than 200.
func (h *API) writeJSONMasked(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		wire.WriteError(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(inspect.ForPerson(h.masker, b), '\n'))
}

// Scan is GET /api/mcp/scan: the document `chronicle scan --json`
// prints, for the configuration the state was applied from.
func (h *API) Scan(w http.ResponseWriter, r *http.Request) {
	rv, ok := h.reviewFor(w, r)
	if ok {
		h.writeJSON(w, rv.Scan)
	}
}

// Review is GET /api/mcp/review: the takeover review (?wait=1 waits for
// a fresh one).
func (h *API) Review(w http.ResponseWriter, r *http.Request) {
	rv, ok := h.reviewFor(w, r)
	if ok {
		h.writeJSON(w, rv)
	}
}

func (h *API) reviewFor(w http.ResponseWriter, r *http.Request) (*Review, bool) {
	if h.opts.Workspace == nil {
		wire.WriteError(w, http.StatusServiceUnavailable, "this hub was started without the machine's tools: no scan")
		return nil, false
	}
	wait, _ := strconv.ParseBool(r.URL.Query().Get("wait"))
	rv, err := h.takeover(r.Context(), wait)
	if err != nil {
		wire.WriteError(w, http.StatusServiceUnavailable, "the review is still being computed: "+err.Error())
		return nil, false
	}
	return rv, true
}
