package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
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
