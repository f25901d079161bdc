package plan

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/skills"
	"github.com/chronicle-dev/chronicle/engine/textdiff"
)

// A SkillFile is one file of a skill that differs between the central copy
// and the declared source: added, removed, changed, or only its mode
// (an executable bit gained or lost).
type SkillFile struct {
	Path   string `json:"path"`   // slash-separated, relative to the skill
	Change string `json:"change"` // added, removed, modified, mode
	// Binary says the file is not text (or too large to show): no diff is
	// shown for it.
	Binary bool `json:"binary,omitempty"`
	// Executable says whether the declared file is executable.
	Executable bool `json:"executable,omitempty"`
	// ModeChanged says the executable bit differs from the central copy's.
	ModeChanged bool `json:"mode_changed,omitempty"`
	// Link is the declared target of a symbolic link.
	Link string `json:"link,omitempty"`
}

// How much of a skill's changes the plan shows: a machine that follows a
// repository on a timer must see what it installs (a "curl … | sh" added
// to a script), and a plan must stay readable. Every changed file is
// listed, in the text and in Change.SkillFiles; these bound the diffs.
const (
	// skillDiffLines is how many lines of one file's diff are shown.
	skillDiffLines = 80
	// skillDiffFiles is how many files get a diff; later ones a line.
	skillDiffFiles = 40
	// skillTextLimit is the largest file diffed, in bytes.
	skillTextLimit = 1 << 20
)

// skillDiff shows how the declared skill (the folder source, read through
// src) differs from its central copy, file by file: a unified diff for each
// text file added or changed, a line for each file removed, each binary
// file, each link and each change of the executable bit.
func (b *builder) skillDiff(c *Change, addr, central string, src fsys.Reader, source string) {
	diffs, err := skills.Compare(b.in.Reader, central, src, source)
	if err != nil {
		c.Diff = b.maskDiff("(cannot compare the skill's files: " + err.Error() + ")\n")
		return
	}
	// SKILL.md first: it says what the skill is; then the programs (an
	// executable file, before or after), which matter most; then the rest,
	// each group by path. A long diff of a data file never pushes a
	// script's change out of sight.
	slices.SortStableFunc(diffs, func(x, y skills.Difference) int { return diffRank(x) - diffRank(y) })
	var out strings.Builder
	diffed := 0
	for _, d := range diffs {
		f := skillFile(d)
		if d.Content && d.From.Kind != "link" && d.To.Kind != "link" {
			x, y, binary := b.skillTexts(filepath.Join(central, filepath.FromSlash(d.Path)), d.From, src, filepath.Join(source, filepath.FromSlash(d.Path)), d.To)
			f.Binary = binary
			switch {
			case binary:
				out.WriteString(binaryLine(d) + "\n")
			case f.Change == "removed":
				fmt.Fprintf(&out, "%s: removed (%s)\n", d.Path, plural(lineCount(x), "line", "lines"))
			case diffed >= skillDiffFiles:
				fmt.Fprintf(&out, "%s: %s (%s; diff not shown: %d files are diffed at most)\n", d.Path, f.Change, plural(lineCount(y), "line", "lines"), skillDiffFiles)
			default:
				diffed++
				from := addr + " (central) " + d.Path
				if f.Change == "added" {
					from += " (absent)"
				}
				out.WriteString(bounded(textdiff.Unified(from, addr+" (declared) "+d.Path, x, ensureNL(y)), d.Path))
			}
		}
		if d.Content && (d.From.Kind == "link" || d.To.Kind == "link") {
			out.WriteString(linkLine(d) + "\n")
		}
		if f.Change == "added" && d.To.Executable {
			fmt.Fprintf(&out, "%s: added as an executable file\n", d.Path)
		}
		if f.ModeChanged {
			if d.To.Executable {
				fmt.Fprintf(&out, "%s: now executable (mode +x)\n", d.Path)
			} else {
				fmt.Fprintf(&out, "%s: no longer executable (mode -x)\n", d.Path)
			}
		}
		c.SkillFiles = append(c.SkillFiles, f)
	}
	for i := range c.SkillFiles {
		c.SkillFiles[i].Path = b.masker.Text(c.SkillFiles[i].Path)
		c.SkillFiles[i].Link = b.masker.Text(c.SkillFiles[i].Link)
	}
	c.Diff = b.maskDiff(out.String())
}

func diffRank(d skills.Difference) int {
	switch {
	case d.Path == skills.ManifestName:
		return 0
	case d.From.Executable || d.To.Executable:
		return 1
	}
	return 2
}

// skillFile is the JSON record of one difference.
func skillFile(d skills.Difference) SkillFile {
	f := SkillFile{Path: d.Path, Executable: d.To.Executable, Link: d.To.Link}
	switch {
	case d.From.Kind == "":
		f.Change = "added"
	case d.To.Kind == "":
		f.Change = "removed"
	case d.Content:
		f.Change = "modified"
	default:
		f.Change = "mode"
	}
	f.ModeChanged = d.From.Kind == "file" && d.To.Kind == "file" && d.From.Executable != d.To.Executable
	return f
}

// skillTexts reads both sides of a changed file for a diff ("" for a side
// that is absent). binary says one of them is not text, or is too large.
func (b *builder) skillTexts(central string, from skills.TreeEntry, src fsys.Reader, source string, to skills.TreeEntry) (x, y string, binary bool) {
	if from.Size > skillTextLimit || to.Size > skillTextLimit {
		return "", "", true
	}
	read := func(r fsys.Reader, path string, e skills.TreeEntry) (string, bool) {
		if e.Kind != "file" {
			return "", true
		}
		data, err := r.ReadFile(path)
		if err != nil {
			return "", false
		}
		return string(data), isText(data)
	}
	x, xt := read(b.in.Reader, central, from)
	y, yt := read(src, source, to)
	return x, y, !xt || !yt
}

// isText reports whether data reads as text: UTF-8 without NUL bytes.
func isText(data []byte) bool {
	return utf8.Valid(data) && !bytes.Contains(data, []byte{0})
}

// bounded returns a file's diff cut to skillDiffLines lines, saying how
// many were left out.
func bounded(diff, path string) string {
	lines := strings.SplitAfter(diff, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) <= skillDiffLines {
		return diff
	}
	return strings.Join(lines[:skillDiffLines], "") +
		fmt.Sprintf("… %d more lines of the diff of %s not shown\n", len(lines)-skillDiffLines, path)
}

func lineCount(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

func binaryLine(d skills.Difference) string {
	switch {
	case d.From.Kind == "":
		return fmt.Sprintf("%s: added, binary (%d bytes)", d.Path, d.To.Size)
	case d.To.Kind == "":
		return fmt.Sprintf("%s: removed, binary (%d bytes)", d.Path, d.From.Size)
	}
	return fmt.Sprintf("%s: binary file differs (%d -> %d bytes)", d.Path, d.From.Size, d.To.Size)
}

func linkLine(d skills.Difference) string {
	switch {
	case d.To.Kind == "link" && d.From.Kind == "link":
		return fmt.Sprintf("%s: link to %s -> link to %s", d.Path, d.From.Link, d.To.Link)
	case d.To.Kind == "link" && d.From.Kind == "":
		return fmt.Sprintf("%s: added, a link to %s", d.Path, d.To.Link)
	case d.To.Kind == "link":
		return fmt.Sprintf("%s: now a link to %s (was a file)", d.Path, d.To.Link)
	case d.To.Kind == "":
		return fmt.Sprintf("%s: removed (a link to %s)", d.Path, d.From.Link)
	}
	return fmt.Sprintf("%s: now a file (was a link to %s)", d.Path, d.From.Link)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
