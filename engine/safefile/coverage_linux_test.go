package safefile

import (
	"errors"
	"strings"
	"syscall"
	"testing"
)

// A write that fails midway (a full disk: Linux's /dev/full) is an error
// naming the file.
func TestWriteInPlaceOnAFullDisk(t *testing.T) {
	err := WriteInPlace("/dev/full", []byte("data"))
	if !errors.Is(err, syscall.ENOSPC) || !strings.HasPrefix(err.Error(), "/dev/full: ") {
		t.Fatalf("WriteInPlace on a full disk: %v", err)
	}
}
