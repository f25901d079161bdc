package providers

import (
	"fmt"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/jsonfile"
)

// Lists is the provider.ListEditor of the JSON tools' files (Devin's
// permissions.deny): jsonfile's byte-preserving string-list edits.
type Lists struct{}

var _ provider.ListEditor = Lists{}

// Strings returns the strings of the list at keyPath, after checking that
// every value on the way is an object and the list a list, as AddString
// and RemoveString require.
func (Lists) Strings(file string, src []byte, keyPath []string) ([]string, error) {
	doc, err := jsonfile.Parse(file, src)
	if err != nil {
		return nil, err
	}
	for i := 1; i < len(keyPath); i++ {
		if v, ok := doc.Lookup(keyPath[:i]...); ok {
			if _, obj := v.(map[string]any); !obj {
				return nil, fmt.Errorf("%s: %s is not an object", file, strings.Join(keyPath[:i], "."))
			}
		}
	}
	v, ok := doc.Lookup(keyPath...)
	if !ok {
		return nil, nil
	}
	list, isList := v.([]any)
	if !isList {
		return nil, fmt.Errorf("%s: %s is not a list", file, strings.Join(keyPath, "."))
	}
	out := make([]string, 0, len(list))
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out, nil
}

// Edit appends value to the list at keyPath, or removes it, with
// jsonfile's AddString and RemoveString.
func (Lists) Edit(file string, src []byte, keyPath []string, value string, remove bool) ([]byte, error) {
	doc, err := jsonfile.Parse(file, src)
	if err != nil {
		return nil, err
	}
	if remove {
		return doc.RemoveString(keyPath, value)
	}
	return doc.AddString(keyPath, value)
}
