package tomlfile

import (
	"bytes"
	"slices"
)

// lineStart returns the offset of the start of the line holding off.
func lineStart(data []byte, off int) int {
	return bytes.LastIndexByte(data[:off], '\n') + 1
}

// lineEnd returns the offset just after the newline ending the line that
// holds off, or len(data) on the last line.
func lineEnd(data []byte, off int) int {
	if off >= len(data) {
		return len(data)
	}
	i := bytes.IndexByte(data[off:], '\n')
	if i < 0 {
		return len(data)
	}
	return off + i + 1
}

func isBlank(line []byte) bool {
	return len(bytes.TrimSpace(line)) == 0
}

// eol returns the file's line ending: CRLF when its first line ends so.
func eol(data []byte) string {
	if i := bytes.IndexByte(data, '\n'); i > 0 && data[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// endsLine reports whether data is empty or ends with a newline.
func endsLine(data []byte) bool {
	return len(data) == 0 || data[len(data)-1] == '\n'
}

// replace returns data with data[start:end] replaced by text.
func replace(data []byte, start, end int, text []byte) []byte {
	return slices.Concat(data[:start], text, data[end:])
}

// cut removes the whole lines data[start:end]. With blanks it also removes
// one adjacent blank line, the one above or else the one below, which is the
// separator insert adds. When the removed lines run to the end of a file
// that does not end with a newline, the newline before them goes too, so
// the file keeps its last-line style.
func cut(data []byte, start, end int, blanks bool) []byte {
	start, end = cutRange(data, start, end, blanks)
	return replace(data, start, end, nil)
}

// cutRange returns the bytes cut removes for the lines data[start:end].
func cutRange(data []byte, start, end int, blanks bool) (int, int) {
	if blanks {
		if above := prevLine(data, start); above >= 0 && isBlank(data[above:start]) {
			start = above
		} else if end < len(data) && isBlank(data[end:lineEnd(data, end)]) {
			end = lineEnd(data, end)
		}
	}
	if end == len(data) && !endsLine(data) && start > 0 {
		start-- // the '\n' ending the line above
		if start > 0 && data[start-1] == '\r' {
			start--
		}
	}
	return start, end
}

// prevLine returns the start of the line above the one starting at start,
// or -1 at the top of the file.
func prevLine(data []byte, start int) int {
	if start == 0 {
		return -1
	}
	return lineStart(data, start-1)
}
