package hub

import (
	"time"
)

// hangGuard bounds every wait of these tests: far longer than any event
// takes, it only turns a bug that loses an event into a failure, not a hang.
const hangGuard = time.Minute
