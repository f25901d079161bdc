package search

import "strings"

// summaryRunes bounds a search result's description: a result list is
// read to choose a tool, and describe_tools gives the whole text.
const summaryRunes = 300

// Summary returns the opening of a description for a search result: its
// first paragraph with runs of white space made single spaces, cut at a
// word boundary to at most 300 characters (ending in "…" when cut).
func Summary(description string) string {
	para, _, _ := strings.Cut(strings.TrimSpace(description), "\n\n")
	text := strings.Join(strings.Fields(para), " ")
	runes := []rune(text)
	if len(runes) <= summaryRunes {
		return text
	}
	cut := string(runes[:summaryRunes-1])
	if i := strings.LastIndexByte(cut, ' '); i > summaryRunes/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:.") + "…"
}
