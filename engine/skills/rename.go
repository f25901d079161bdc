package skills

import (
	"errors"
	"fmt"
	"regexp"
)

// nameLine is a top-level name key of a frontmatter block, with its value
// and without the line's ending.
var nameLine = regexp.MustCompile(`(?m)^name:[^\r\n]*`)

// Rename returns a SKILL.md's content with its frontmatter name set to name
// (a valid skill name), changing nothing else: not the other keys, not the
// comments, not the body. It refuses frontmatter whose name it cannot
// rewrite as one line — a name spread over several lines, or none — rather
// than produce a file that means something else.
func Rename(src []byte, name string) ([]byte, error) {
	before, err := ParseFrontmatter(src)
	if err != nil {
		return nil, err
	}
	start, end, err := frontmatterSpan(src)
	if err != nil {
		return nil, err
	}
	block := src[start:end]
	lines := nameLine.FindAllIndex(block, -1)
	if len(lines) != 1 {
		return nil, errors.New("the frontmatter has no name line to rename")
	}
	out := make([]byte, 0, len(src)+len(name))
	out = append(out, src[:start+lines[0][0]]...)
	out = append(out, "name: "+name...)
	out = append(out, src[start+lines[0][1]:]...)
	after, err := ParseFrontmatter(out)
	if err != nil || after.Name != name || after.Description != before.Description {
		return nil, fmt.Errorf("the frontmatter's name is not a plain one-line value; rename it to %q by hand", name)
	}
	return out, nil
}
