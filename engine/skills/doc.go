// Package skills owns what chronicle knows about agent skills on disk: a
// skill is a folder with a SKILL.md whose YAML frontmatter names it. The
// package parses frontmatter, hashes a skill's tree, and scans the tools'
// skills folders, classifying each entry (SPEC §5) against the central store.
package skills
