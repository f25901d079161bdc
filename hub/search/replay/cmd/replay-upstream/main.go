// Command replay-upstream serves a recorded tools/list over stdio: the tools
// of one captured MCP server, each answering a call with a text naming the
// tool and echoing its arguments (see package replay).
//
//	replay-upstream hub/search/testdata/catalogue/github.json
package main

import (
	"fmt"
	"os"

	"github.com/chronicle-dev/chronicle/hub/search/replay"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: replay-upstream RECORDING.json")
		os.Exit(2)
	}
	if err := replay.Serve(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "replay-upstream:", err)
		os.Exit(1)
	}
}
