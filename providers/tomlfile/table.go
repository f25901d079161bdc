package tomlfile

import (
	"fmt"
	"slices"
	"strings"
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

// Get returns the value of key and whether the table has it.
func (t Table) Get(key string) (any, bool) {
	for _, f := range t {
		if f.Key == key {
			return f.Value, true
		}
	}
	return nil, false
}

// Render returns the table as TOML text under the header [key], with its
// sub-tables as [key.sub] sections. Lines end with "\n".
func (t Table) Render(key []string) ([]byte, error) {
	var b strings.Builder
	if err := t.render(&b, key); err != nil {
		return nil, fmt.Errorf("%s: %w", dotted(key), err)
	}
	return []byte(b.String()), nil
}

func (t Table) render(b *strings.Builder, key []string) error {
	fmt.Fprintf(b, "[%s]\n", dotted(key))
	var subs []Field
	for _, f := range t {
		if sub, ok := f.Value.(Table); ok {
			subs = append(subs, Field{f.Key, sub})
			continue
		}
		v, err := inline(f.Value)
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

// dotted writes a key path as TOML, quoting the parts that need it.
func dotted(key []string) string {
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
