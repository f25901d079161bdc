//go:build linux

// Command hubload measures the chronicle hub against the same upstream
// called directly (bench/hub.sh runs it; bench/README.md says what each
// figure means).
//
//	hubload upstream            a fast MCP server on stdin/stdout
//	hubload upstream-http       the same over Streamable HTTP on 127.0.0.1 (prints its address)
//	hubload run -chronicle BIN -home DIR [-base BIN -base-home DIR] [-forwarder BIN [-floor]]
//	                            start the processes, measure, print, stop them
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: hubload upstream | upstream-http | run -chronicle BIN [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "upstream":
		err = serveStdio()
	case "upstream-http":
		var ln net.Listener
		if ln, err = net.Listen("tcp", "127.0.0.1:0"); err == nil {
			fmt.Println(ln.Addr())
			err = serveHTTP(ln)
		}
	case "run":
		err = runCommand(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "hubload:", err)
		os.Exit(1)
	}
}

func runCommand(args []string) error {
	var cfg config
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	fs.StringVar(&cfg.chronicle, "chronicle", "", "the chronicle `binary` to measure")
	fs.StringVar(&cfg.home, "home", "", "the `HOME` the hub runs with (its state applied there by bench/hub.sh)")
	fs.StringVar(&cfg.base, "base", "", "the chronicle `binary` of the baseline commit, measured beside it")
	fs.StringVar(&cfg.baseHome, "base-home", "", "the `HOME` the baseline runs with")
	fs.StringVar(&cfg.forwarder, "forwarder", "", "bench/forwarder's `binary`, measured beside it")
	fs.BoolVar(&cfg.floor, "floor", false, "also measure bench/forwarder -floor: the forwarder doing on each call what a hub must (bench/README)")
	fs.IntVar(&cfg.runs, "runs", 5, "rounds of each measurement (medians and ranges are over them)")
	fs.IntVar(&cfg.calls, "calls", 2000, "sequential calls per latency round")
	fs.IntVar(&cfg.sessions, "sessions", 16, "concurrent HTTP sessions of the load rounds")
	fs.DurationVar(&cfg.load, "load", 3*time.Second, "length of one load round")
	fs.BoolVar(&cfg.stdioOnly, "stdio-only", false, "measure only the latency over stdio")
	_ = fs.Parse(args)
	if cfg.chronicle == "" || cfg.home == "" || (cfg.base != "" && cfg.baseHome == "") {
		return fmt.Errorf("run needs -chronicle and -home (and -base-home with -base)")
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cfg.self = self
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	return run(ctx, cfg)
}
