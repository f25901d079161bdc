package state

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chronicle-dev/chronicle/engine/secret"
)

// Describe returns what the state records at addr, as HCL-like text for
// `chronicle state show`, with the field names of the state file. Secrets
// appear as their references, such as secret("env:TOKEN"). An unknown
// address is an error naming close matches.
func (s *State) Describe(addr string) (string, error) {
	if !slices.Contains(s.Addresses(), addr) {
		return "", s.unknown(addr)
	}
	var w attrs
	kind, name, _ := strings.Cut(addr, ".")
	switch kind {
	case "service":
		if svc, ok := s.Services[name]; ok {
			w.block(addr, serviceToFile(svc))
		}
	case "policy":
		if p, ok := s.Policies[name]; ok {
			w.block(addr, policyV1(p))
		}
	case "profile":
		if p, ok := s.Profiles[name]; ok {
			w.block(addr, profileV1(p))
		}
	case "skill":
		if sk, ok := s.Skills[name]; ok {
			w.block(addr, skillV1(sk))
		}
	case HubAddress:
		w.block(addr, hubV1(*s.Hub))
	case ChronovaAddress:
		w.block(addr, chronovaV1(*s.Chronova))
	}
	for _, l := range s.Links {
		if l.Address == addr {
			w.block(addr+" (link)", linkRecord(l))
		}
	}
	for _, e := range s.Entries {
		if e.Address == addr {
			w.block(addr+" (config entry)", entryRecord(e))
		}
	}
	for _, f := range s.Files {
		if f.Address == addr {
			w.block(addr+" (whole file)", fileRecord(f))
		}
	}
	for _, b := range s.Blocks {
		if slices.Contains(b.WantedBy, addr) {
			w.block(addr+" (marked block)", blockRecord(b))
		}
	}
	for _, r := range s.Rules {
		if r.Address == addr {
			w.block(addr+" (permission rule)", ruleRecord(r))
		}
	}
	for _, in := range s.Intents {
		if in.Address == addr {
			w.block(addr+" (journalled, not completed)", intentV1(in))
		}
	}
	return w.String(), nil
}

// attrs builds `key = value` lines under `# title` headers.
type attrs struct{ strings.Builder }

// block writes a header and one line per set field of record, a statefile
// struct, named by its JSON tag. The address is in the header already.
func (w *attrs) block(title string, record any) {
	if w.Len() > 0 {
		w.WriteString("\n")
	}
	fmt.Fprintf(w, "# %s\n", title)
	v := reflect.ValueOf(record)
	for i := range v.NumField() {
		name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
		f := v.Field(i)
		if name == "address" || (f.IsZero() && f.Kind() != reflect.Bool) {
			continue
		}
		fmt.Fprintf(w, "%s = %s\n", name, show(f.Interface()))
	}
}

// show formats one field's value the way HCL would write it.
func show(v any) string {
	switch v := v.(type) {
	case string:
		return strconv.Quote(v)
	case *bool:
		return strconv.FormatBool(*v)
	case []string:
		return list(v, strconv.Quote)
	case secret.Value:
		return showValue(v)
	case []secret.Value:
		return list(v, showValue)
	case map[string]secret.Value:
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(v)) {
			parts = append(parts, strconv.Quote(k)+" = "+showValue(v[k]))
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	case time.Time:
		return strconv.Quote(v.Format(time.RFC3339))
	default:
		return fmt.Sprint(v)
	}
}

func list[T any](vs []T, show func(T) string) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = show(v)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// showValue prints a value that is exactly one reference as the call,
// secret("env:X"), and anything else as a quoted template.
func showValue(v secret.Value) string {
	if r, ok := v.OnlyRef(); ok {
		return r.HCL()
	}
	return strconv.Quote(v.HCL())
}
