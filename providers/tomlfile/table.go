package tomlfile

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// A Table is a TOML table to write, with its keys in the order given. A
// field whose value is a Table is written as a sub-table section after the
// others; maps and slices are written inline.
type Table []Field

// A Field is one key of a Table. Value is a string, bool, integer, float,
// time.Time, slice, map with string keys, or Table.
type Field struct {
	Key   string
	Value any
}

// Render returns the table as TOML text under the header [key], with its
// sub-tables as [key.sub] sections. Lines end with "\n".
func (t Table) Render(key []string) ([]byte, error) {
	var b strings.Builder
	if err := t.render(&b, key); err != nil {
		return nil, fmt.Errorf("%s: %w", Dotted(key), err)
	}
	return []byte(b.String()), nil
}

func (t Table) render(b *strings.Builder, key []string) error {
	for _, k := range key {
		if !utf8.ValidString(k) {
			return fmt.Errorf("the key %q is not valid UTF-8", k)
		}
	}
	fmt.Fprintf(b, "[%s]\n", Dotted(key))
	var subs []Field
	for _, f := range t {
		if sub, ok := f.Value.(Table); ok {
			subs = append(subs, Field{f.Key, sub})
			continue
		}
		v, err := inline(f.Value)
		if err == nil && !utf8.ValidString(f.Key) {
			err = fmt.Errorf("the key is not valid UTF-8")
		}
		if err != nil {
			return fmt.Errorf("%s: %w", quoteKey(f.Key), err)
		}
		fmt.Fprintf(b, "%s = %s\n", quoteKey(f.Key), v)
	}
	for _, f := range subs {
		b.WriteString("\n")
		if err := f.Value.(Table).render(b, append(slices.Clone(key), f.Key)); err != nil {
			return err
		}
	}
	return nil
}

// Dotted writes a key path as TOML, quoting the parts that need it:
// mcp_servers."weird.name".
func Dotted(key []string) string {
	parts := make([]string, len(key))
	for i, k := range key {
		parts[i] = quoteKey(k)
	}
	return strings.Join(parts, ".")
}

// quoteKey returns k bare when TOML allows it, else as a basic string.
func quoteKey(k string) string {
	if k == "" || strings.ContainsFunc(k, func(r rune) bool {
		return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_')
	}) {
		s, _ := scalar(k)
		return s
	}
	return k
}
