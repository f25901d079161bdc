//go:build linux

package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strconv"
	"time"
)

// The clients speak just enough MCP to call one tool again and again, with
// one request in flight per session, so that they cost the same whichever
// server they talk to.

// protocolVersion is the revision the clients ask for: the newest one with
// sessions.
const protocolVersion = "2025-11-25"

// A session calls one tool, one call at a time.
type session interface {
	call() error
}

func initializeBody() []byte {
	return []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + protocolVersion +
		`","capabilities":{},"clientInfo":{"name":"hubload","version":"1"}}}`)
}

const initializedBody = `{"jsonrpc":"2.0","method":"notifications/initialized"}`

// callBody appends a tools/call of tool with id to b.
func callBody(b []byte, id int, tool string) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = strconv.AppendInt(b, int64(id), 10)
	b = append(b, `,"method":"tools/call","params":{"name":"`...)
	b = append(b, tool...)
	b = append(b, `","arguments":{"text":"ping"}}}`...)
	return b
}

// checkResult fails unless an answer is a successful tool result.
func checkResult(b []byte) error {
	if !bytes.Contains(b, []byte(`"result"`)) || bytes.Contains(b, []byte(`"isError":true`)) {
		return fmt.Errorf("not a tool result: %.300s", b)
	}
	return nil
}

// An httpSession is a Streamable HTTP session.
type httpSession struct {
	c    *http.Client
	url  string
	tool string
	sid  string
	auth string // "Bearer …", or ""
	id   int
	body []byte
	resp bytes.Buffer
}

func newHTTPClient() *http.Client {
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		MaxIdleConns: 256, MaxIdleConnsPerHost: 256, IdleConnTimeout: time.Minute,
	}}
}

func dialHTTP(c *http.Client, url, tool, token string) (*httpSession, error) {
	s := &httpSession{c: c, url: url, tool: tool}
	if token != "" {
		s.auth = "Bearer " + token
	}
	if _, err := s.post(initializeBody()); err != nil {
		return nil, fmt.Errorf("initialize: %w", err)
	}
	if s.sid == "" {
		return nil, errors.New("initialize: no Mcp-Session-Id")
	}
	if _, err := s.post([]byte(initializedBody)); err != nil {
		return nil, fmt.Errorf("notifications/initialized: %w", err)
	}
	return s, nil
}

func (s *httpSession) post(body []byte) ([]byte, error) {
	req, err := http.NewRequest(http.MethodPost, s.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if s.auth != "" {
		req.Header.Set("Authorization", s.auth)
	}
	if s.sid != "" {
		req.Header.Set("Mcp-Session-Id", s.sid)
		req.Header.Set("MCP-Protocol-Version", protocolVersion)
	}
	resp, err := s.c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	s.resp.Reset()
	if _, err := s.resp.ReadFrom(resp.Body); err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("%s: %.300s", resp.Status, s.resp.Bytes())
	}
	if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
		s.sid = id
	}
	return s.resp.Bytes(), nil
}

func (s *httpSession) call() error {
	s.id++
	s.body = callBody(s.body[:0], s.id, s.tool)
	b, err := s.post(s.body)
	if err != nil {
		return err
	}
	return checkResult(b)
}

// A stdioSession is a child process spoken to over its stdin and stdout.
type stdioSession struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	tool string
	id   int
	body []byte
	want []byte
}

func dialStdio(cmd *exec.Cmd, tool string) (*stdioSession, error) {
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.SysProcAttr = orphaned()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &stdioSession{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 64<<10), tool: tool}
	if _, err := s.roundTrip(append(initializeBody(), '\n'), 0); err != nil {
		s.close()
		return nil, fmt.Errorf("initialize: %w", err)
	}
	if _, err := s.in.Write([]byte(initializedBody + "\n")); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

// roundTrip writes one request and reads lines until the answer to id.
func (s *stdioSession) roundTrip(req []byte, id int) ([]byte, error) {
	if _, err := s.in.Write(req); err != nil {
		return nil, err
	}
	s.want = strconv.AppendInt(append(s.want[:0], `"id":`...), int64(id), 10)
	for {
		line, err := s.out.ReadSlice('\n')
		if err != nil {
			return nil, err
		}
		if i := bytes.Index(line, s.want); i >= 0 {
			if next := line[i+len(s.want):]; len(next) > 0 && (next[0] == ',' || next[0] == '}') {
				return line, nil
			}
		}
	}
}

func (s *stdioSession) call() error {
	s.id++
	s.body = append(callBody(s.body[:0], s.id, s.tool), '\n')
	b, err := s.roundTrip(s.body, s.id)
	if err != nil {
		return err
	}
	return checkResult(b)
}

// close ends the child: stdin closes, then it has 5 s to exit.
func (s *stdioSession) close() {
	s.in.Close()
	stop(s.cmd)
}
