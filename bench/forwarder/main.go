// Command forwarder is the practical limit bench/hub.sh measures the hub
// against: a bare net/http server that answers initialize itself and
// forwards every other request over one pipe to an upstream's stdio,
// matching answers by id. No MCP library, no sessions, no policies: what
// it adds to the upstream called directly is the floor of any hub in Go.
// With -stdio it is the same floor over stdio: a process between the
// client and the upstream that copies bytes both ways, reading nothing.
//
//	forwarder UPSTREAM [ARGS…]          prints its 127.0.0.1 address, serves /mcp
//	forwarder -stdio UPSTREAM [ARGS…]   relays its stdin and stdout to the upstream's
//	forwarder -floor UPSTREAM [ARGS…]   the first, doing on each call what a hub must (floor.go)
//
// With FORWARDER_CPUPROFILE=DIR it writes a CPU profile to
// DIR/forwarder.PID.prof until it is told to stop (bench/hub.sh's
// BENCH_PROFILE_DIR sets it); with FORWARDER_TRACE=DIR, a runtime trace to
// DIR/forwarder.PID.trace.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"runtime/trace"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
)

func main() {
	record()
	if len(os.Args) > 2 && os.Args[1] == "-stdio" {
		relay(os.Args[2:])
		return
	}
	args := os.Args[1:]
	var fl *floor
	if len(args) > 1 && args[0] == "-floor" {
		var err error
		if fl, err = newFloor(os.Getenv("FORWARDER_TOKEN")); err != nil {
			fmt.Fprintln(os.Stderr, "forwarder:", err)
			os.Exit(2)
		}
		args = args[1:]
	}
	up := exec.Command(args[0], args[1:]...)
	in, _ := up.StdinPipe()
	out, _ := up.StdoutPipe()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err == nil {
		err = up.Start()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "forwarder:", err)
		os.Exit(1)
	}
	var (
		mu      sync.Mutex // guards pending and writes to in
		pending = map[int64]chan []byte{}
		next    atomic.Int64
	)
	go func() { // one reader of the upstream's answers, matched by id
		r := bufio.NewReaderSize(out, 64<<10)
		for {
			line, err := r.ReadBytes('\n')
			if err != nil {
				os.Exit(1)
			}
			var m struct{ ID int64 }
			_ = json.Unmarshal(line, &m)
			mu.Lock()
			ch := pending[m.ID]
			delete(pending, m.ID)
			mu.Unlock()
			if ch != nil {
				ch <- line
			}
		}
	}()
	call := func(id int64, method string, params json.RawMessage) []byte {
		ch := make(chan []byte, 1)
		if len(params) == 0 {
			params = json.RawMessage("{}")
		}
		req := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", id, method, params)
		mu.Lock()
		pending[id] = ch
		_, _ = in.Write(req)
		mu.Unlock()
		return <-ch
	}
	call(next.Add(1), "initialize", json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"forwarder","version":"1"}}`))
	_, _ = in.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
	var sessions atomic.Int64
	fmt.Println(ln.Addr())
	if fl != nil {
		fl.host = ln.Addr().String()
		_ = http.Serve(ln, fl.handler(func() int64 { return next.Add(1) }, call))
		return
	}
	_ = http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			return // DELETE ends nothing: there are no sessions to end
		}
		body, _ := io.ReadAll(r.Body)
		var m struct {
			ID     json.RawMessage
			Method string
			Params json.RawMessage
		}
		if json.Unmarshal(body, &m) != nil || len(m.ID) == 0 {
			w.WriteHeader(http.StatusAccepted) // a notification or a response
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if m.Method == "initialize" {
			w.Header().Set("Mcp-Session-Id", "fwd-"+strconv.FormatInt(sessions.Add(1), 10))
			writeInitialized(w, m.ID, "forwarder")
			return
		}
		writeAnswer(w, m.ID, call(next.Add(1), m.Method, m.Params))
	}))
}

// writeInitialized answers initialize request id as server name.
func writeInitialized(w io.Writer, id json.RawMessage, name string) {
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":%q,"version":"1"}}}`, id, name)
}

// writeAnswer writes the upstream's answer line under the client's
// request id: its result, or its error.
func writeAnswer(w io.Writer, id json.RawMessage, line []byte) {
	var a struct{ Result, Error json.RawMessage }
	_ = json.Unmarshal(line, &a)
	if a.Result != nil {
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, id, a.Result)
	} else {
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":%s}`, id, a.Error)
	}
}

// relay runs the upstream with pipes of its own and copies what comes on
// stdin to it and what it writes to stdout, through this process's
// memory (a plain read and write: no splice between the pipes), until
// either side ends.
func relay(args []string) {
	up := exec.Command(args[0], args[1:]...)
	up.Stderr = os.Stderr
	in, _ := up.StdinPipe()
	out, _ := up.StdoutPipe()
	if err := up.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "forwarder:", err)
		os.Exit(1)
	}
	go func() {
		_, _ = io.Copy(struct{ io.Writer }{in}, struct{ io.Reader }{os.Stdin})
		_ = in.Close()
	}()
	_, _ = io.Copy(struct{ io.Writer }{os.Stdout}, struct{ io.Reader }{out})
	_ = up.Wait()
}

// record writes what the environment asks for until the forwarder gets
// SIGINT or SIGTERM (how bench/hubload stops it), then exits: a CPU profile
// with FORWARDER_CPUPROFILE=DIR, a runtime trace with FORWARDER_TRACE=DIR,
// each to DIR/forwarder.PID.prof or .trace.
func record() {
	var stops []func()
	open := func(env, ext string) *os.File {
		dir := os.Getenv(env)
		if dir == "" {
			return nil
		}
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("forwarder.%d.%s", os.Getpid(), ext)))
		if err != nil {
			fmt.Fprintln(os.Stderr, "forwarder:", err)
			os.Exit(1)
		}
		return f
	}
	start := func(f *os.File, begin func(io.Writer) error, end func()) {
		if f == nil {
			return
		}
		if err := begin(f); err != nil {
			fmt.Fprintln(os.Stderr, "forwarder:", err)
			os.Exit(1)
		}
		stops = append(stops, func() { end(); _ = f.Close() })
	}
	start(open("FORWARDER_CPUPROFILE", "prof"), pprof.StartCPUProfile, pprof.StopCPUProfile)
	start(open("FORWARDER_TRACE", "trace"), trace.Start, trace.Stop)
	if len(stops) == 0 {
		return
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-stop
		for _, s := range stops {
			s()
		}
		os.Exit(0)
	}()
}
