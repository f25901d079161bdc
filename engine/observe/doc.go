// Package observe says what is at a place now — a skill folder, a link, a
// tool's entry and the file holding it — as an Observation that a plan
// records in each change's Before and that apply takes again, through the
// same functions, before it touches that place. Comparing the two is apply's
// one precondition, whatever the kind of change: if the place is not what
// the plan saw, the change fails and nothing there is touched.
package observe
