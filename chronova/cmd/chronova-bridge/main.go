// Command chronova-bridge runs the Chronova bridge alone over stdio. It is a
// thin wrapper for end-to-end tests and manual use; users run
// `chronicle chronova`, which calls the same chronova.ServeStdio.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/chronicle-dev/chronicle/chronova"
)

// version is set with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	home, _ := os.UserHomeDir()
	opts := chronova.Options{
		Sources: chronova.Sources{Home: home, Getenv: os.Getenv},
		Version: version,
	}
	if err := chronova.ServeStdio(ctx, opts, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "chronova-bridge: %v\n", err)
		stop()
		os.Exit(1)
	}
}
