package main

import (
	"os"

	_ "github.com/chronicle-dev/chronicle/cmd/chronicle/internal/gcpace" // paces the collector from the first allocation
)

func main() {
	os.Exit(Main())
}

// Main runs chronicle with the process's arguments and standard streams and
// returns the exit code.
func Main() int {
	stop := profile()
	defer stop()
	a := newApp(os.Stdin, os.Stdout, os.Stderr)
	return a.run(os.Args[1:])
}
