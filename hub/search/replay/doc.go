// Package replay serves a recorded tools/list again: a Recording is what one
// public MCP server listed (captured by bench/catalogue/capture.sh into
// hub/search/testdata/catalogue), and Serve answers as that server would,
// over stdio, with every tool answering a call by a deterministic text that
// names the tool and echoes its arguments.
//
// It lets the hub's tests and benchmarks run against hundreds of real tool
// definitions without installing or trusting the servers that wrote them.
// Start one with
//
//	go run ./hub/search/replay/cmd/replay-upstream hub/search/testdata/catalogue/github.json
//
// or build the command once (go build -o DIR/replay-upstream
// ./hub/search/replay/cmd/replay-upstream) and declare it as a stdio service.
package replay
