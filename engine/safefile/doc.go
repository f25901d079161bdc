// Package safefile writes files the way chronicle must write anything a user
// cares about: to a temporary file in the same directory, synced, then
// renamed over the original, so a crash leaves either the old or the new
// content and never half of either.
package safefile
