package inspect

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/tidwall/gjson"

	"github.com/chronicle-dev/chronicle/engine/mask"
)

// The inspector keeps a bounded copy of each message: a person reading the
// log wants to see that a tool answered 60 MB and how it begins and ends,
// not the 60 MB, which no browser page renders and which would be masked
// again on every read.
const (
	// RecordLimit is about as many bytes of JSON as a kept message holds.
	RecordLimit = 64 << 10
	// StringLimit is the longest string kept whole; a longer one keeps
	// its first three quarters of this and its last quarter.
	StringLimit = 16 << 10
	// stringFloor is what a long string keeps even when the record's
	// budget is spent: enough to recognise it.
	stringFloor = 1 << 10
	// nestLimit is how deep a kept message goes; what is deeper is left
	// out whole.
	nestLimit = 64
)

// forLog returns the copy of doc, valid JSON, that the log keeps, and how
// many of doc's bytes it left out. The copy is masked as forPerson masks
// (Masker.Literal then Masker.Text on every string: a registered value is
// hidden whole; Masker.Literal alone on names and on the values of
// identifier fields) and bounded to about recordLimit bytes: a long
// string keeps its start and end around a marker saying how many bytes
// were left out, and once the budget is spent the rest of an array or
// object is one marker item. Each cut falls outside an escape, a
// character, a registered value of m (in any form) and, when one is near,
// a word, so what is kept is masked as it would have been in doc. It walks
// doc once with gjson: strings masking leaves as they were are copied, not
// re-encoded, and members keep their order.
func forLog(m *mask.Masker, doc []byte) ([]byte, int) {
	doc = bytes.TrimSpace(doc)
	if len(doc) == 0 {
		return nil, 0
	}
	// gjson reads strings: doc is viewed as one, not copied. Nothing
	// gjson returns outlives this call.
	e := logCopy{m: m, out: make([]byte, 0, min(len(doc), RecordLimit+StringLimit))}
	e.value(gjson.Parse(unsafe.String(&doc[0], len(doc))), 0, false)
	return e.out, e.left
}

// A logCopy is forLog's walk: what it wrote so far and what it left out.
type logCopy struct {
	m    *mask.Masker
	out  []byte
	left int // bytes of doc left out
}

// value appends v; identifier tells that it is, or is inside, the value of
// an identifier field.
func (e *logCopy) value(v gjson.Result, depth int, identifier bool) {
	switch {
	case v.Type == gjson.String:
		e.str(v, identifier)
		return
	case !v.IsObject() && !v.IsArray():
		e.out = append(e.out, v.Raw...)
		return
	case depth >= nestLimit:
		e.left += len(v.Raw)
		e.out = strconv.AppendQuote(e.out, "… "+strconv.Itoa(len(v.Raw))+" bytes nested too deep left out …")
		return
	}
	obj := v.IsObject()
	end := v.Index + len(v.Raw) - 1 // the closing bracket
	e.out = append(e.out, v.Raw[0])
	n, rest, from := 0, 0, 0
	v.ForEach(func(key, val gjson.Result) bool {
		if rest > 0 || len(e.out) >= RecordLimit && n > 0 {
			if rest == 0 {
				from = val.Index
				if obj {
					from = key.Index
				}
			}
			rest++
			return true
		}
		if n > 0 {
			e.out = append(e.out, ',')
		}
		n++
		if obj {
			e.str(key, true)
			e.out = append(e.out, ':')
			e.value(val, depth+1, identifierFields[key.Str])
		} else {
			e.value(val, depth+1, identifier)
		}
		return true
	})
	if rest > 0 {
		e.left += end - from
		what := " more items, "
		if obj {
			what = " more members, "
			e.out = append(e.out, `,"…":`...)
		} else {
			e.out = append(e.out, ',')
		}
		e.out = strconv.AppendQuote(e.out, "… "+strconv.Itoa(rest)+what+strconv.Itoa(end-from)+" bytes left out …")
	}
	e.out = append(e.out, v.Raw[len(v.Raw)-1])
}

// str appends the string v masked (Literal for a name or an identifier,
// else Text), keeping its start and end when it is longer than what is
// left of the budget (at most stringLimit, at least stringFloor).
func (e *logCopy) str(v gjson.Result, identifier bool) {
	// A value the hub resolved is hidden whole, as in MCP traffic
	// (Literal), before the shape rules for people's text (Text), which
	// would keep its first letters.
	mask := func(s string) string { return e.m.Text(e.m.Literal(s)) }
	if identifier {
		mask = e.m.Literal
	}
	limit := min(StringLimit, max(RecordLimit-len(e.out), stringFloor))
	if len(v.Raw) > limit {
		body := v.Raw[1 : len(v.Raw)-1]
		head := cutBefore(e.m, body, limit*3/4)
		tail := cutAfter(e.m, body, len(body)-limit/4)
		if tail-head >= 64 { // worth a marker
			e.left += tail - head
			kept := unquote(body[:head]) + " … " + strconv.Itoa(tail-head) + " bytes left out … " + unquote(body[tail:])
			e.out = appendJSONString(e.out, mask(kept))
			return
		}
	}
	if masked := mask(v.Str); masked != v.Str {
		e.out = appendJSONString(e.out, masked)
		return
	}
	// Unchanged: the string as doc spelled it.
	e.out = append(e.out, v.Raw...)
}

// unquote decodes the inside of a JSON string cut where cutBefore and
// cutAfter cut.
func unquote(body string) string {
	return gjson.Parse(`"` + body + `"`).Str
}

// appendJSONString appends s as encoding/json writes it.
func appendJSONString(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always encodes
	return append(b, q...)
}

// cutBefore returns where the start of s (the inside of a JSON string)
// that is kept ends: at most i, after a word (or at 0: a start that is one
// word is not kept), so that it keeps no piece of a token too short to look
// like one or of a URL without its @, and never inside an escape, a
// character or a registered value.
func cutBefore(m *mask.Masker, s string, i int) int {
	j := i
	for j > 0 && !afterWord(s, j) {
		j--
	}
	for {
		at := j
		if start, end := escapeAt(s, j); start < j && j < end {
			j = start
		}
		for j > 0 && !utf8.RuneStart(s[j]) {
			j--
		}
		if start, _, ok := m.Across(s, j); ok {
			j = start
		}
		if j == at {
			return j
		}
	}
}

// cutAfter returns where the end of s that is kept starts: at least i, by
// the rules of cutBefore (or at len(s): an end that is one word is not
// kept).
func cutAfter(m *mask.Masker, s string, i int) int {
	j := i
	for j < len(s) && !afterWord(s, j) {
		j++
	}
	for {
		at := j
		if _, end := escapeAt(s, j); end > j {
			j = end
		}
		for j < len(s) && !utf8.RuneStart(s[j]) {
			j++
		}
		if _, end, ok := m.Across(s, j); ok {
			j = end
		}
		if j == at {
			return j
		}
	}
}

// afterWord reports whether s[:j] ends with a character that is in no
// token shape and ends a URL: white space, a quote or an angle bracket,
// raw or escaped.
func afterWord(s string, j int) bool {
	switch s[j-1] {
	case ' ', '\t', '\'', '<', '>':
		return true
	}
	if start, end := escapeAt(s, j); end == j {
		switch s[start:end] {
		case `\n`, `\r`, `\t`, `\"`, `\u003c`, `\u003e`, `\u0027`:
			return true
		}
	}
	return false
}

// escapeAt returns the escape sequence of s (the inside of a JSON string)
// nearest before j that could reach it: its start and end, with end <= j
// when j is not inside one (0, 0 when there is none).
func escapeAt(s string, j int) (start, end int) {
	for p := j - 1; p >= 0 && p >= j-6; p-- {
		if s[p] != '\\' {
			continue
		}
		// A backslash after an odd number of backslashes is escaped.
		n := 0
		for q := p - 1; q >= 0 && s[q] == '\\'; q-- {
			n++
		}
		if n%2 == 1 {
			p--
		}
		if p+1 < len(s) && s[p+1] == 'u' {
			return p, p + 6
		}
		return p, p + 2
	}
	return 0, 0
}
