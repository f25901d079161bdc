package oauth

import (
	"io"
	"log/slog"
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	// The provider's example login logs every request: quiet.
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	if helper := os.Getenv(helperEnv); helper != "" {
		os.Exit(runHelper(helper))
	}
	os.Exit(m.Run())
}
