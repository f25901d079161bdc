package proc

import (
	"io"
	"log/slog"
	"os/exec"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/chronicle-dev/chronicle/engine/mask"
)

// TestChildWhoseStdoutNobodyReads: a child that exits while its transport
// has stopped reading its stdout is reaped, its pipes closed, and nothing
// of the hub's is left waiting for the reader that never comes.
func TestChildWhoseStdoutNobodyReads(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	c, err := Start("quiet", exec.Command("sh", "-c", "echo '{\"id\":1}'; exit 0"), mask.NewMasker(), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.Done:
	case <-time.After(30 * time.Second): // a hang guard
		t.Fatal("the child was not reaped")
	}
}
