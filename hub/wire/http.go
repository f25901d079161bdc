package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/mark3labs/mcp-go/mcp"
)

// WriteError answers {"error": msg} with status.
func WriteError(w http.ResponseWriter, status int, msg string) {
	WriteJSONStatus(w, status, map[string]string{"error": msg})
}

// WriteJSONStatus answers v as JSON with status. Only for answers that hold
// nothing from an upstream or a file (errors, lock holders): everything else
// goes through Hub.writeJSON, which masks.
func WriteJSONStatus(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// MaxBodyBytes limits one request body.
const MaxBodyBytes = 4 << 20

// BodyError answers a request whose body could not be read: 413 when it
// is over MaxBodyBytes, 400 otherwise.
func BodyError(w http.ResponseWriter, err error) {
	if tooLarge := new(http.MaxBytesError); errors.As(err, &tooLarge) {
		WriteError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the request body is over %d MiB", MaxBodyBytes>>20))
		return
	}
	WriteError(w, http.StatusBadRequest, "cannot read the request body")
}

// RPCErrorStatus is the HTTP status the 2026-07-28 revision gives an error
// answer of code (as mcp-go maps its own errors): 404 for a method not
// found, 400 for a request the server refuses as it is, 200 for the rest.
func RPCErrorStatus(code int) int {
	switch code {
	case mcp.METHOD_NOT_FOUND:
		return http.StatusNotFound
	case mcp.HEADER_MISMATCH, mcp.MISSING_REQUIRED_CLIENT_CAPABILITY, mcp.UNSUPPORTED_PROTOCOL_VERSION,
		mcp.INVALID_REQUEST, mcp.INVALID_PARAMS, mcp.PARSE_ERROR:
		return http.StatusBadRequest
	}
	return http.StatusOK
}
