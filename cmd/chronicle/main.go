package main

import (
	"os"
)

func main() {
	os.Exit(Main())
}

// Main runs chronicle with the process's arguments and standard streams and
// returns the exit code.
func Main() int {
	paceGC()
	stop := profile()
	defer stop()
	a := newApp(os.Stdin, os.Stdout, os.Stderr)
	return a.run(os.Args[1:])
}
