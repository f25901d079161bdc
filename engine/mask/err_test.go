package mask

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
)

// TestErr: a registered value leaves an error's text, the error keeps its
// identity for errors.Is, and an error without one is returned as it is.
func TestErr(t *testing.T) {
	m := NewMasker()
	m.Add("s3cr3t-value")
	err := fmt.Errorf("open with s3cr3t-value: %w", fs.ErrNotExist)
	got := m.Err(err)
	if strings.Contains(got.Error(), "s3cr3t-value") || !errors.Is(got, fs.ErrNotExist) {
		t.Errorf("Err: %q (is ErrNotExist: %v)", got, errors.Is(got, fs.ErrNotExist))
	}
	plain := errors.New("nothing secret")
	if m.Err(plain) != plain {
		t.Error("Err changed an error without a registered value")
	}
	if m.Err(nil) != nil {
		t.Error("Err(nil) is not nil")
	}
}
