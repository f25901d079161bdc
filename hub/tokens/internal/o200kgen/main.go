// Command o200kgen writes o200k.bin, the compact o200k_base table of
// package tokens, from github.com/tiktoken-go/tokenizer's table (run by
// go generate in hub/tokens; the output is committed).
//
// The layout (little-endian uint32s, see tokens/table.go): the number of
// tokens n; n+1 offsets into the bytes that follow; n ranks; then every
// token's bytes, the tokens in byte order, so a token is found by binary
// search and its rank read beside it.
package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/tiktoken-go/tokenizer/codec"
)

func main() {
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "o200kgen:", err)
		os.Exit(1)
	}
}

type token struct {
	text string
	rank uint32
}

func run(out string) error {
	c := codec.NewO200kBase()
	var toks []token
	// The ranks are dense from 0; Decode fails past the last one and on
	// the special tokens, which Count treats as text (they are not in the
	// table).
	for id, misses := uint(0), 0; misses < 1000; id++ {
		s, err := c.Decode([]uint{id})
		if err != nil {
			misses++
			continue
		}
		misses = 0
		toks = append(toks, token{s, uint32(id)})
	}
	slices.SortFunc(toks, func(a, b token) int { return strings.Compare(a.text, b.text) })
	for i := 1; i < len(toks); i++ {
		if toks[i].text == toks[i-1].text {
			return fmt.Errorf("token %q twice", toks[i].text)
		}
	}
	var b bytes.Buffer
	put := func(v uint32) { b.Write(binary.LittleEndian.AppendUint32(nil, v)) }
	put(uint32(len(toks)))
	off := uint32(0)
	for _, t := range toks {
		put(off)
		off += uint32(len(t.text))
	}
	put(off)
	for _, t := range toks {
		put(t.rank)
	}
	for _, t := range toks {
		b.WriteString(t.text)
	}
	return os.WriteFile(out, b.Bytes(), 0o644)
}
