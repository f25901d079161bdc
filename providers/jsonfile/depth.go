package jsonfile

import (
	"bytes"
	"fmt"
)

// MaxDepth is how deeply a tool's JSON or JSONC file may nest objects and
// arrays. Real files nest a handful of levels; the parser recurses once per
// level, so a file nested a million deep would exhaust the stack.
const MaxDepth = 512

// checkDepth scans src for its nesting before it is parsed, skipping
// strings and comments, and returns a *provider.ParseError at the first
// bracket deeper than MaxDepth. It checks nothing else: the parser does.
func checkDepth(path string, src []byte) error {
	depth := 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '"':
			i = stringEnd(src, i)
		case '/':
			i = commentEnd(src, i)
		case '{', '[':
			depth++
			if depth > MaxDepth {
				return positionError(path, src, i, fmt.Errorf("nested deeper than %d levels: no tool's configuration needs that many", MaxDepth))
			}
		case '}', ']':
			depth = max(depth-1, 0)
		}
	}
	return nil
}

// stringEnd returns the index of the quote closing the string that opens at
// src[open], or the last index when the string never closes. It jumps from
// quote to quote (most of a large file is strings): a quote preceded by an
// odd number of backslashes is escaped.
func stringEnd(src []byte, open int) int {
	for i := open + 1; i < len(src); {
		j := bytes.IndexByte(src[i:], '"')
		if j < 0 {
			break
		}
		q := i + j
		escapes := 0
		for k := q - 1; k > open && src[k] == '\\'; k-- {
			escapes++
		}
		if escapes%2 == 0 {
			return q
		}
		i = q + 1
	}
	return len(src) - 1
}

// commentEnd returns the index of the last byte of the comment that starts
// at src[slash] (// to the end of the line, /* to */), or slash itself when
// no comment starts there.
func commentEnd(src []byte, slash int) int {
	if slash+1 >= len(src) {
		return slash
	}
	switch src[slash+1] {
	case '/':
		for i := slash + 2; i < len(src); i++ {
			if src[i] == '\n' {
				return i
			}
		}
		return len(src) - 1
	case '*':
		for i := slash + 2; i+1 < len(src); i++ {
			if src[i] == '*' && src[i+1] == '/' {
				return i + 1
			}
		}
		return len(src) - 1
	}
	return slash
}
