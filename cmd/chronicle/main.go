package main

import (
	"os"
)

func main() {
	os.Exit(Main())
}

// Main runs chronicle with the process's arguments and standard streams and
// returns the exit code. The collector's pacing is set first, for the
// command the arguments name (pacingFor).
func Main() int {
	a := newApp(os.Stdin, os.Stdout, os.Stderr)
	root := a.rootCommand()
	pacingFor(commandName(root, os.Args[1:]), os.LookupEnv).set()
	stop := profile()
	defer stop()
	return a.execute(root, os.Args[1:])
}
