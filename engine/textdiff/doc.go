// Package textdiff renders unified diffs of text (SKILL.md files, config
// entries, HCL formatting) with github.com/sergi/go-diff.
package textdiff
