package yamlfile

import (
	"bytes"
	"fmt"
	"slices"

	"go.yaml.in/yaml/v3"
)

// A place is where the map at a key path is in a document, and how its
// entries are laid out.
type place struct {
	d       *Document
	keyPath []string
	key     *yaml.Node // the map's key; nil when the map does not exist
	value   *yaml.Node // the map's value: a block mapping, null or {}
	pairs   []Pair     // its entries
	bound   int        // the first line after the map: the next key around it, or past the end
	indent  int        // spaces before an entry's key
	step    int        // spaces per level inside an entry
}

// place finds the map at keyPath and refuses what its spans cannot be
// trusted for (see the package comment).
func (d *Document) place(keyPath []string) (*place, error) {
	l := newLines(d.Data)
	p := &place{d: d, keyPath: keyPath, bound: l.count() + 1}
	m := d.root
	for i, k := range keyPath {
		if m == nil || isNull(m) {
			m = nil
			break
		}
		if err := blockMap(m, keyPath[:i]); err != nil {
			return nil, err
		}
		idx := slices.IndexFunc(Pairs(m), func(pr Pair) bool { return pr.Key.Kind == yaml.ScalarNode && pr.Key.Value == k })
		if idx < 0 {
			m = nil
			break
		}
		if next := 2 * (idx + 1); next < len(m.Content) {
			p.bound = min(p.bound, m.Content[next].Line)
		}
		p.key, m = m.Content[2*idx], m.Content[2*idx+1]
	}
	if m == nil {
		p.key = nil
	}
	p.value = m
	p.step = docStep(d.root)
	switch {
	case m == nil || isNull(m):
	case m.Kind == yaml.MappingNode && m.Style&yaml.FlowStyle != 0 && len(m.Content) == 0:
	default:
		if err := blockMap(m, keyPath); err != nil {
			return nil, err
		}
		p.pairs = Pairs(m)
		for _, pr := range p.pairs {
			if pr.Key.Kind != yaml.ScalarNode || pr.Key.Tag == "!!merge" || pr.Key.Anchor != "" {
				return nil, fmt.Errorf("%s (line %d) uses a merge key, an anchor or a key that is not a name; chronicle does not edit it: write the entries out in full, or edit it by hand", dotted(keyPath), pr.Key.Line)
			}
		}
	}
	switch {
	case len(p.pairs) > 0:
		p.indent = p.pairs[0].Key.Column - 1
		p.step = entryStep(p.pairs, p.key, p.step)
	case p.key != nil:
		p.indent = p.key.Column - 1 + p.step
	default:
		p.indent = p.step
	}
	return p, nil
}

// blockMap refuses a node at path that is not a mapping written in block
// style without anchors.
func blockMap(m *yaml.Node, path []string) error {
	switch {
	case m.Kind == yaml.AliasNode || m.Anchor != "":
		return fmt.Errorf("%s (line %d) is a YAML anchor or alias; chronicle does not edit it: write it out in full, or edit it by hand", dotted(path), m.Line)
	case m.Kind != yaml.MappingNode:
		return fmt.Errorf("%s (line %d) is %s, not a mapping", dotted(path), m.Line, kindName(m))
	case m.Style&yaml.FlowStyle != 0:
		return fmt.Errorf("%s (line %d) is written in flow style ({…}); chronicle edits maps written one entry per line: rewrite it so, or edit it by hand", dotted(path), m.Line)
	}
	return nil
}

// editable refuses an entry whose span cannot be trusted.
func editable(pr Pair, path []string) error {
	v := pr.Value
	switch {
	case v.Kind == yaml.AliasNode || hasAnchor(v):
		return fmt.Errorf("%s (line %d) uses YAML anchors or aliases; chronicle does not edit it: write it out in full, or edit it by hand", dotted(path), pr.Key.Line)
	case (v.Kind == yaml.MappingNode || v.Kind == yaml.SequenceNode) && v.Style&yaml.FlowStyle != 0:
		return fmt.Errorf("%s (line %d) is written in flow style ({…}); chronicle edits entries written one field per line: rewrite it so, or edit it by hand", dotted(path), pr.Key.Line)
	}
	return nil
}

func hasAnchor(n *yaml.Node) bool {
	if n.Anchor != "" || n.Kind == yaml.AliasNode {
		return true
	}
	return slices.ContainsFunc(n.Content, hasAnchor)
}

// docStep is the indentation step of the document's first nested block
// mapping, two spaces when there is none.
func docStep(n *yaml.Node) int {
	for _, pr := range Pairs(n) {
		v := pr.Value
		if v.Kind == yaml.MappingNode && v.Style&yaml.FlowStyle == 0 && len(v.Content) > 0 {
			if d := v.Content[0].Column - pr.Key.Column; d > 0 {
				return d
			}
			if d := docStep(v); d != 2 {
				return d
			}
		}
	}
	return 2
}

// entryStep is the step inside the map's entries: the first entry's own
// indentation, else the map's, else fallback.
func entryStep(pairs []Pair, key *yaml.Node, fallback int) int {
	for _, pr := range pairs {
		v := pr.Value
		if v.Kind == yaml.MappingNode && v.Style&yaml.FlowStyle == 0 && len(v.Content) > 0 && v.Content[0].Column > pr.Key.Column {
			return v.Content[0].Column - pr.Key.Column
		}
	}
	if key != nil && pairs[0].Key.Column > key.Column {
		return pairs[0].Key.Column - key.Column
	}
	return fallback
}

// index is the position of the entry name, -1 when there is none.
func (p *place) index(name string) int {
	return slices.IndexFunc(p.pairs, func(pr Pair) bool { return pr.Key.Value == name })
}

// entryBound is the first line after entry i: the next entry's key, or the
// map's bound.
func (p *place) entryBound(i int) int {
	if i+1 < len(p.pairs) {
		return p.pairs[i+1].Key.Line
	}
	return p.bound
}

// insertion is the offset where new entries go in a map that has some: the
// end of its last entry's last line; -1 otherwise.
func (p *place) insertion(l lines) int {
	if len(p.pairs) == 0 {
		return -1
	}
	return l.lastContent(p.pairs[len(p.pairs)-1].Key.Line, p.bound)
}

// additions returns the spans that add entries: after the map's last
// entry; under its key, in place of "~" or "{}"; or, when the map does not
// exist, as a new top-level map at the end of the file.
func (p *place) additions(l lines, added []Change, nl string) ([]span, error) {
	if len(added) == 0 {
		return nil, nil
	}
	data := p.d.Data
	var text []byte
	if p.key == nil {
		if len(p.keyPath) != 1 {
			return nil, fmt.Errorf("%s does not exist, and chronicle adds maps only at the top level", dotted(p.keyPath))
		}
		if n := p.d.null; n != nil {
			return nil, fmt.Errorf("the top level (line %d) is an explicit null, not a mapping; chronicle adds %s only to a mapping: remove it, or edit the file by hand", n.Line, dotted(p.keyPath))
		}
		m := NewMap()
		for _, c := range added {
			m.AddNode(Key(c.Name), c.Value)
		}
		b, err := block(Key(p.keyPath[0]), m.Node(), 0, p.step, nl)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", dotted(p.keyPath), err)
		}
		return []span{{start: len(data), end: len(data), text: append(lineBreak(data, len(data), nl), b...)}}, nil
	}
	apart := p.blankSeparated(l)
	for _, c := range added {
		b, err := block(Key(c.Name), c.Value, p.indent, p.step, nl)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", dotted(append(slices.Clone(p.keyPath), c.Name)), err)
		}
		if apart {
			text = append(text, nl...)
		}
		text = append(text, b...)
	}
	if len(p.pairs) > 0 {
		at := p.insertion(l)
		return []span{{start: at, end: at, text: append(lineBreak(data, at, nl), text...)}}, nil
	}
	token, err := p.emptyValue(l)
	if err != nil {
		return nil, err
	}
	at := l.end(p.key.Line)
	return []span{token, {start: at, end: at, text: append(lineBreak(data, at, nl), text...)}}, nil
}

// blankSeparated reports whether the map keeps its entries apart with blank
// lines: the line above its last entry (and the comments over it) is blank.
func (p *place) blankSeparated(l lines) bool {
	if len(p.pairs) < 2 {
		return false
	}
	n := p.pairs[len(p.pairs)-1].Key.Line - 1
	for n > 0 && l.filler(n) && !l.blank(n) {
		n--
	}
	return l.blank(n)
}

// emptyValue is the span of the "~", "null" or "{}" after the map's key,
// with the spaces before it, which entries replace; an empty span when
// nothing follows the key.
func (p *place) emptyValue(l lines) (span, error) {
	v := p.value
	if isNull(v) && v.Value == "" {
		return span{start: l.end(p.key.Line), end: l.end(p.key.Line)}, nil
	}
	if v.Line != p.key.Line {
		return span{}, fmt.Errorf("%s (line %d): its empty value is not on its key's line; chronicle does not edit it", dotted(p.keyPath), p.key.Line)
	}
	start := l.offset(v.Line, v.Column)
	rest := l.text(v.Line)[start-l.start(v.Line):]
	var end int
	switch {
	case isNull(v) && v.Style == 0 && bytes.HasPrefix(rest, []byte(v.Value)):
		end = start + len(v.Value)
	case v.Kind == yaml.MappingNode && bytes.HasPrefix(rest, []byte("{")):
		j := bytes.IndexByte(rest, '}')
		if j < 0 || len(bytes.TrimSpace(rest[1:j])) > 0 {
			return span{}, fmt.Errorf("%s (line %d) is written in flow style over several lines; chronicle does not edit it", dotted(p.keyPath), v.Line)
		}
		end = start + j + 1
	default:
		return span{}, fmt.Errorf("%s (line %d): chronicle cannot locate its empty value", dotted(p.keyPath), v.Line)
	}
	for start > l.start(v.Line) && (l.data[start-1] == ' ' || l.data[start-1] == '\t') {
		start--
	}
	return span{start: start, end: end, text: []byte{}}, nil
}

// lineBreak is the line break to put before text inserted at offset at:
// none, unless at is the end of a last line that has none.
func lineBreak(data []byte, at int, nl string) []byte {
	if at == len(data) && at > 0 && data[at-1] != '\n' {
		return []byte(nl)
	}
	return nil
}

// emptied returns the spans that remove every entry of the map: its key
// goes too when nothing else is under it, so that a map chronicle added
// leaves no trace; otherwise (comments under the key) the entries go and the
// key is left as "key: {}".
func (p *place) emptied(l lines, spans []span) []span {
	start := l.start(p.key.Line)
	end := l.lastContent(p.key.Line, p.bound)
	colon := l.offset(p.key.Line, p.key.Column) + len(p.key.Value)
	plain := p.key.Style == 0 && colon < l.end(p.key.Line) && l.data[colon] == ':'
	other := !plain || len(bytes.TrimSpace(l.data[colon+1:l.end(p.key.Line)])) > 0
	for n := p.key.Line + 1; n <= l.lineOf(max(end-1, 0)) && !other; n++ {
		inside := slices.ContainsFunc(spans, func(s span) bool { return s.start <= l.start(n) && l.start(n) < s.end })
		other = !inside && !l.blank(n)
	}
	if !other {
		return []span{{start: start, end: blankBelow(l, start, end)}}
	}
	for i := range spans {
		spans[i].start = blankAbove(l, spans[i].start)
	}
	if plain {
		spans = append(spans, span{start: colon + 1, end: colon + 1, text: []byte(" {}")})
	}
	return spans
}
