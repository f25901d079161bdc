// Package markers finds, writes and removes chronicle's marked blocks in a
// text file it shares with the user and other tools (AGENTS.md, CLAUDE.md,
// GEMINI.md, …):
//
//	<!-- chronicle:begin rule.go-style -->
//	…the block's body…
//	<!-- chronicle:end rule.go-style -->
//
// A marker is a whole line, exactly as above (a line with anything more,
// indented, or with other spacing is text). Markers are recognised anywhere
// in the file, inside fenced code too: a tool's editing keeps them as lines,
// and a file whose markers do not pair up — an end without a begin, a begin
// without an end, a block inside a block, an id marked twice — is an error
// naming the file and the line, so nothing in it is changed. Everything
// outside the blocks is the user's and is never rewritten, reordered or
// reformatted: a block is replaced between its own marker lines, appended
// after the last block (or at the end of the file, after one blank line),
// and removed with the one blank line that was added with it. A file whose
// first line ends in CRLF gets CRLF in what is written into it; bodies are
// compared with LF line ends. See docs/decisions/0100-marked-blocks.md.
package markers
