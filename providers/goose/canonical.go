package goose

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"
)

// defaults are the stored values that mean the same as leaving the field
// out — what goose itself writes for an extension it saves — so that goose
// rewriting its file does not make chronicle's entry look edited.
var defaults = map[string]func(any) bool{
	"description":     emptyValue,
	"envs":            emptyValue,
	"env_keys":        emptyValue,
	"headers":         emptyValue,
	"available_tools": emptyValue,
	"bundled":         func(v any) bool { return v == nil },
	"timeout":         func(v any) bool { return v == nil },
	"socket":          func(v any) bool { return v == nil },
	"display_name":    func(v any) bool { return v == nil },
}

func emptyValue(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	}
	return false
}

// isDefault reports whether the stored value of key means the same as
// leaving it out.
func isDefault(key string, v any) bool {
	d, ok := defaults[key]
	return ok && d(v)
}

// canonical encodes a stored extension as JSON with sorted keys and without
// its default values, so two reads of the same extension hash alike
// whatever the file's layout or goose's way of saving it.
func canonical(m map[string]any) ([]byte, error) {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if !isDefault(k, v) {
			out[k] = jsonSafe(v)
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// jsonSafe turns what YAML decodes to into what JSON can hold.
func jsonSafe(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, item := range v {
			out[k] = jsonSafe(item)
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(v))
		for k, item := range v {
			out[fmt.Sprint(k)] = jsonSafe(item)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, item := range v {
			out[i] = jsonSafe(item)
		}
		return out
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return strconv.FormatFloat(v, 'g', -1, 64)
		}
	case time.Time:
		return v.Format(time.RFC3339Nano)
	}
	return v
}
