package chronova

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// namedRanges are the ranges Chronova's stats and analytics accept by name.
var namedRanges = []string{"today", "last_7_days", "last_30_days", "last_3_months", "last_6_months", "last_year", "all_time"}

var (
	datePattern      = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	dateRangePattern = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2})_to_(\d{4}-\d{2}-\d{2})$`)
)

// maxPerPage is the largest page Chronova serves.
const maxPerPage = 100

// args reads a tool call's arguments. Each getter returns an error whose text
// is fit to return to the model as a tool error.
type args map[string]any

// optString returns the string argument name, or "" when it is absent or null.
func (a args) optString(name string) (string, error) {
	v, ok := a[name]
	if !ok || v == nil {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("invalid %s: expected a string, got %s", name, describe(v))
	}
	return strings.TrimSpace(s), nil
}

// reqString returns the string argument name, which must be present.
func (a args) reqString(name string) (string, error) {
	s, err := a.optString(name)
	if err == nil && s == "" {
		err = fmt.Errorf("missing required argument %s", name)
	}
	return s, err
}

// optDate returns the argument name, which must be a real YYYY-MM-DD date.
func (a args) optDate(name string) (string, error) {
	s, err := a.optString(name)
	if err != nil || s == "" {
		return s, err
	}
	if err := checkDate(s); err != nil {
		return "", fmt.Errorf("invalid %s %q: %w", name, s, err)
	}
	return s, nil
}

// optInt returns the integer argument name within [lo, hi], or 0 when absent.
// A whole number written as a string ("2") is accepted, since some clients
// send every argument as text.
func (a args) optInt(name string, lo, hi int) (int, error) {
	v, ok := a[name]
	if !ok || v == nil {
		return 0, nil
	}
	var n float64
	switch x := v.(type) {
	case float64:
		n = x
	case int:
		n = float64(x)
	case int64:
		n = float64(x)
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return 0, fmt.Errorf("invalid %s: expected an integer, got %q", name, x)
		}
		n = f
	case string:
		i, err := strconv.Atoi(strings.TrimSpace(x))
		if err != nil {
			return 0, fmt.Errorf("invalid %s: expected an integer, got %q", name, x)
		}
		n = float64(i)
	default:
		return 0, fmt.Errorf("invalid %s: expected an integer, got %s", name, describe(v))
	}
	if n != math.Trunc(n) {
		return 0, fmt.Errorf("invalid %s: expected an integer, got %v", name, n)
	}
	if n < float64(lo) || n > float64(hi) {
		return 0, fmt.Errorf("invalid %s %v: must be between %d and %d", name, n, lo, hi)
	}
	return int(n), nil
}

// checkNamedRange accepts only the named ranges.
func checkNamedRange(r string) error {
	for _, n := range namedRanges {
		if r == n {
			return nil
		}
	}
	return fmt.Errorf("invalid range %q: expected one of %s", r, strings.Join(namedRanges, ", "))
}

// checkRangeOrDates accepts a named range or YYYY-MM-DD_to_YYYY-MM-DD with
// real dates, the first not after the second.
func checkRangeOrDates(r string) error {
	m := dateRangePattern.FindStringSubmatch(r)
	if m == nil {
		if checkNamedRange(r) == nil {
			return nil
		}
		return fmt.Errorf("invalid range %q: expected one of %s, or YYYY-MM-DD_to_YYYY-MM-DD", r, strings.Join(namedRanges, ", "))
	}
	for _, d := range m[1:] {
		if err := checkDate(d); err != nil {
			return fmt.Errorf("invalid range %q: %w", r, err)
		}
	}
	if m[1] > m[2] {
		return fmt.Errorf("invalid range %q: the start date is after the end date", r)
	}
	return nil
}

// checkDate accepts a calendar date written YYYY-MM-DD.
func checkDate(s string) error {
	if !datePattern.MatchString(s) {
		return fmt.Errorf("expected a date as YYYY-MM-DD")
	}
	if _, err := time.Parse(time.DateOnly, s); err != nil {
		return fmt.Errorf("%s is not a calendar date", s)
	}
	return nil
}

func describe(v any) string {
	switch v.(type) {
	case bool:
		return "a boolean"
	case float64, int, int64, json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	default:
		return fmt.Sprintf("%T", v)
	}
}
