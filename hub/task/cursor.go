package task

import (
	"encoding/base64"
	"errors"
	"strconv"
)

// A tasks/list cursor is where a session's list goes on: the position of
// the last task of the page before, which says nothing of another
// session's tasks (a cursor is read for the session that sends it).

// Cursor returns the cursor of position next, "" for none (the last page).
func Cursor(next int64) string {
	if next == 0 {
		return ""
	}
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(next, 10)))
}

// OpenCursor returns the position a cursor names, 0 for none.
func OpenCursor(cursor string) (int64, error) {
	if cursor == "" {
		return 0, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	n, err2 := strconv.ParseInt(string(b), 10, 64)
	if err != nil || err2 != nil || n <= 0 {
		return 0, errors.New("invalid cursor: " + cursor)
	}
	return n, nil
}
