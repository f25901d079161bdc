package codex

import (
	"fmt"
	"math"
	"time"
)

// fields reads typed values out of one decoded server table, keeping the
// first mismatch so that a reader can check once at the end.
type fields struct {
	m   map[string]any
	err error
}

func (f *fields) fail(key, want string) {
	if f.err == nil {
		f.err = fmt.Errorf("%s: want %s, got %T", key, want, f.m[key])
	}
}

func (f *fields) str(key string) string {
	v, ok := f.m[key]
	if !ok {
		return ""
	}
	s, ok := v.(string)
	if !ok {
		f.fail(key, "a string")
	}
	return s
}

func (f *fields) boolean(key string, def bool) bool {
	v, ok := f.m[key]
	if !ok {
		return def
	}
	b, ok := v.(bool)
	if !ok {
		f.fail(key, "true or false")
		return def
	}
	return b
}

// strings returns an array of strings, nil when the key is absent.
func (f *fields) strings(key string) []string {
	v, ok := f.m[key]
	if !ok {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		f.fail(key, "an array of strings")
		return nil
	}
	out := make([]string, 0, len(list))
	for _, item := range list {
		s, ok := item.(string)
		if !ok {
			f.fail(key, "an array of strings")
			return nil
		}
		out = append(out, s)
	}
	return out
}

// strMap returns a table of strings, nil when the key is absent.
func (f *fields) strMap(key string) map[string]string {
	v, ok := f.m[key]
	if !ok {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		f.fail(key, "a table of strings")
		return nil
	}
	out := make(map[string]string, len(m))
	for k, item := range m {
		s, ok := item.(string)
		if !ok {
			f.fail(key, "a table of strings")
			return nil
		}
		out[k] = s
	}
	return out
}

// seconds returns a number of seconds as a duration, zero when absent.
func (f *fields) seconds(key string) time.Duration {
	var secs float64
	switch v := f.m[key].(type) {
	case nil:
		return 0
	case int64:
		secs = float64(v)
	case float64:
		secs = v
	default:
		f.fail(key, "a number of seconds")
		return 0
	}
	if secs < 0 || math.IsNaN(secs) || secs > math.MaxInt64/float64(time.Second) {
		f.fail(key, "a number of seconds")
		return 0
	}
	return time.Duration(secs * float64(time.Second))
}
