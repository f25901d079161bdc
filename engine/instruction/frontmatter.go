package instruction

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A FrontMatter is the YAML header of a Markdown file, decoded.
type FrontMatter map[string]any

// ErrUnclosed says a file opens a front matter block it never closes.
var ErrUnclosed = errors.New("the front matter block has no closing ---")

// Split separates src into its front matter and its body (Normal). A file
// whose first line is not --- has no front matter (nil) and is all body.
// The header is decoded with yaml.v3; one that is not a YAML mapping is an
// error.
func Split(src []byte) (FrontMatter, string, error) {
	src = bytes.TrimPrefix(src, []byte("\ufeff"))
	first, rest, _ := bytes.Cut(src, []byte("\n"))
	if string(bytes.TrimRight(first, "\r \t")) != "---" {
		return nil, Normal(string(src)), nil
	}
	for off := 0; off <= len(rest); {
		line := rest[off:]
		next := len(rest) + 1
		if j := bytes.IndexByte(line, '\n'); j >= 0 {
			line, next = line[:j], off+j+1
		}
		if string(bytes.TrimRight(line, "\r \t")) == "---" {
			fm := FrontMatter{}
			if err := yaml.Unmarshal(rest[:off], &fm); err != nil {
				return nil, "", fmt.Errorf("the front matter is not valid YAML: %w", err)
			}
			body := ""
			if next <= len(rest) {
				body = string(rest[next:])
			}
			return fm, Normal(body), nil
		}
		if next > len(rest) {
			break
		}
		off = next
	}
	return nil, "", ErrUnclosed
}

// String returns the string at key; ok is false when the key is absent. A
// value that is not a string (a number, a list) is an error.
func (fm FrontMatter) String(key string) (string, bool, error) {
	v, ok := fm[key]
	if !ok || v == nil {
		return "", false, nil
	}
	switch s := v.(type) {
	case string:
		return s, true, nil
	case bool, int, float64:
		return fmt.Sprint(s), true, nil
	}
	return "", false, fmt.Errorf("front matter %q is not a string", key)
}

// List returns the strings at key: a YAML list of strings, or one string
// of comma-separated items (Claude Code's tools, Cursor's globs).
func (fm FrontMatter) List(key string) ([]string, bool, error) {
	v, ok := fm[key]
	if !ok || v == nil {
		return nil, false, nil
	}
	switch x := v.(type) {
	case string:
		var out []string
		for _, p := range strings.Split(x, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
		return out, true, nil
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, false, fmt.Errorf("front matter %q lists something that is not a string", key)
			}
			out = append(out, s)
		}
		return out, true, nil
	}
	return nil, false, fmt.Errorf("front matter %q is neither a list nor a string", key)
}

// A Header writes a front matter block, its keys in the order added.
type Header struct {
	b bytes.Buffer
}

// Add writes key with value encoded by yaml.v3 (a list in flow style); an
// empty string or list is left out.
func (h *Header) Add(key string, value any) {
	node := &yaml.Node{}
	switch v := value.(type) {
	case string:
		if v == "" {
			return
		}
		node.Kind, node.Tag, node.Value = yaml.ScalarNode, "!!str", v
		if strings.Contains(v, "\n") {
			node.Style = yaml.LiteralStyle
		}
	case []string:
		if len(v) == 0 {
			return
		}
		node.Kind, node.Style = yaml.SequenceNode, yaml.FlowStyle
		for _, s := range v {
			node.Content = append(node.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s})
		}
	case bool:
		node.Kind, node.Tag, node.Value = yaml.ScalarNode, "!!bool", fmt.Sprint(v)
	default:
		panic(fmt.Sprintf("instruction.Header.Add: unsupported value %T", value))
	}
	doc := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, node}}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		panic(fmt.Sprintf("instruction.Header.Add: %v", err)) // a string, a list of strings or a bool always encodes
	}
	_ = enc.Close()
	h.b.Write(buf.Bytes())
}

// Raw writes "key: value" as it is, for a tool whose reader is not YAML
// (Cursor's globs, which it wants unquoted).
func (h *Header) Raw(key, value string) {
	h.b.WriteString(key + ": " + value + "\n")
}

// Markdown returns the header and body as a file: the body alone when no
// key was written, else the block between --- lines, a blank line, and the
// body.
func (h *Header) Markdown(body string) []byte {
	if h.b.Len() == 0 {
		return []byte(body)
	}
	var out bytes.Buffer
	out.WriteString("---\n")
	out.Write(h.b.Bytes())
	out.WriteString("---\n")
	if body != "" {
		out.WriteString("\n" + body)
	}
	return out.Bytes()
}
