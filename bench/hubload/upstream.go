//go:build linux

package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync/atomic"
)

// The fast upstream answers MCP with canned bytes and decodes only the id,
// the method and the protocol version of what it reads, so that what the
// benchmark measures is the hub (or the client), not the upstream.

// A message is the part of a JSON-RPC message the fast upstream reads.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		ProtocolVersion string `json:"protocolVersion"`
	} `json:"params"`
}

const echoTool = `{"name":"echo","description":"Answers pong.","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}`

// answer returns the response to one message, or nil for a notification or
// a response.
func answer(line []byte) []byte {
	var m message
	if json.Unmarshal(line, &m) != nil || len(m.ID) == 0 || m.Method == "" {
		return nil
	}
	out := make([]byte, 0, 256)
	out = append(out, `{"jsonrpc":"2.0","id":`...)
	out = append(out, m.ID...)
	switch m.Method {
	case "initialize":
		v := m.Params.ProtocolVersion
		if v == "" {
			v = "2025-06-18"
		}
		out = append(out, `,"result":{"protocolVersion":`...)
		out = strconv.AppendQuote(out, v)
		out = append(out, `,"capabilities":{"tools":{}},"serverInfo":{"name":"fast","version":"1"}}}`...)
	case "tools/list":
		out = append(out, `,"result":{"tools":[`+echoTool+`]}}`...)
	case "tools/call":
		out = append(out, `,"result":{"content":[{"type":"text","text":"pong"}]}}`...)
	case "ping":
		out = append(out, `,"result":{}}`...)
	default:
		out = append(out, `,"error":{"code":-32601,"message":"method not found"}}`...)
	}
	return out
}

// serveStdio answers one message per line on stdin.
func serveStdio() error {
	r := bufio.NewReaderSize(os.Stdin, 64<<10)
	w := bufio.NewWriterSize(os.Stdout, 64<<10)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			if out := answer(line); out != nil {
				w.Write(out)
				w.WriteByte('\n')
				if r.Buffered() == 0 {
					if err := w.Flush(); err != nil {
						return err
					}
				}
			}
		}
		if err == io.EOF {
			return w.Flush()
		}
		if err != nil {
			return err
		}
	}
}

// serveHTTP answers Streamable HTTP at /mcp on ln (stateful: initialize
// gets a session id, which is not checked afterwards).
func serveHTTP(ln net.Listener) error {
	var sessions atomic.Int64
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodPost:
		case http.MethodDelete:
			return
		default:
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		out := answer(body)
		if out == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		if r.Header.Get("Mcp-Session-Id") == "" {
			w.Header().Set("Mcp-Session-Id", "fast-"+strconv.FormatInt(sessions.Add(1), 10))
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(out)
	})
	return http.Serve(ln, h)
}
