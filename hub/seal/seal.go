package seal

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strings"
)

// ErrTampered is what Open returns for a value the key did not seal: made
// up, altered, or sealed by another hub.
var ErrTampered = errors.New("the value was not sealed by this hub or was altered")

// A Sealer seals and opens values under one key.
type Sealer struct {
	key []byte
}

// New returns a Sealer under key (at least 32 bytes, so that the HMAC is
// as strong as SHA-256 allows).
func New(key []byte) (*Sealer, error) {
	if len(key) < 32 {
		return nil, errors.New("a seal key needs at least 32 bytes")
	}
	return &Sealer{key: append([]byte(nil), key...)}, nil
}

// Random returns a Sealer under a fresh random key: what it seals opens
// only while this process runs (a hub's handles do not outlive it, and
// neither do the upstream sessions they name).
func Random() *Sealer {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		panic("seal: no randomness: " + err.Error()) // crypto/rand never fails on supported systems
	}
	return &Sealer{key: key}
}

var enc = base64.RawURLEncoding

// Seal returns payload and its HMAC, each base64url, joined by a dot: a
// string safe in JSON, URLs and headers.
func (s *Sealer) Seal(payload []byte) string {
	return enc.EncodeToString(payload) + "." + enc.EncodeToString(s.mac(payload))
}

// Open returns the payload of a value Seal made under the same key, or
// ErrTampered.
func (s *Sealer) Open(value string) ([]byte, error) {
	p, m, ok := strings.Cut(value, ".")
	if !ok {
		return nil, ErrTampered
	}
	payload, err1 := enc.DecodeString(p)
	sum, err2 := enc.DecodeString(m)
	if err1 != nil || err2 != nil || !hmac.Equal(sum, s.mac(payload)) {
		return nil, ErrTampered
	}
	return payload, nil
}

func (s *Sealer) mac(payload []byte) []byte {
	h := hmac.New(sha256.New, s.key)
	h.Write(payload)
	return h.Sum(nil)
}
