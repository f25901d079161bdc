package jsontooltest

import "fmt"

// format prints a Want with sorted map keys, for comparison and messages.
func format(w Want) string {
	if len(w.Args) == 0 {
		w.Args = nil
	}
	return fmt.Sprintf("%+v", w)
}
