package skills

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"unicode/utf8"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"go.yaml.in/yaml/v3"
)

// ManifestName is the file that makes a folder a skill.
const ManifestName = "SKILL.md"

// MaxDescription is the longest description the Agent Skills rule allows.
const MaxDescription = 1024

// Frontmatter is the YAML header of a SKILL.md. Other keys are allowed and
// ignored here.
type Frontmatter struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
}

// ErrNoFrontmatter says a SKILL.md does not start with a --- block.
var ErrNoFrontmatter = errors.New("SKILL.md does not start with a --- frontmatter block")

// ParseFrontmatter reads the frontmatter of a SKILL.md's content and checks
// what the Agent Skills rule requires of it: a name and a description of 1 to
// 1024 characters.
func ParseFrontmatter(src []byte) (Frontmatter, error) {
	var fm Frontmatter
	start, end, err := frontmatterSpan(src)
	if err != nil {
		return fm, err
	}
	if err := yaml.Unmarshal(src[start:end], &fm); err != nil {
		return fm, fmt.Errorf("frontmatter is not valid YAML: %w", err)
	}
	switch n := utf8.RuneCountInString(fm.Description); {
	case fm.Name == "":
		return fm, errors.New("frontmatter has no name")
	case n == 0:
		return fm, errors.New("frontmatter has no description")
	case n > MaxDescription:
		return fm, fmt.Errorf("frontmatter description is %d characters long (at most %d)", n, MaxDescription)
	}
	return fm, nil
}

// frontmatterSpan returns where the YAML between the opening and closing
// --- lines of src lies (after a UTF-8 byte order mark, if any).
func frontmatterSpan(src []byte) (start, end int, err error) {
	start = len(src) - len(bytes.TrimPrefix(src, []byte("\xef\xbb\xbf")))
	rest, ok := cutLine(src[start:], "---")
	if !ok {
		return 0, 0, ErrNoFrontmatter
	}
	start = len(src) - len(rest)
	for off := start; off < len(src); {
		line := src[off:]
		if j := bytes.IndexByte(line, '\n'); j >= 0 {
			line = line[:j]
		}
		if string(bytes.TrimRight(line, "\r \t")) == "---" {
			return start, off, nil
		}
		off += len(line) + 1
	}
	return 0, 0, errors.New("the frontmatter block has no closing ---")
}

// cutLine removes a first line equal to want (ignoring a trailing \r).
func cutLine(src []byte, want string) ([]byte, bool) {
	line, rest, _ := bytes.Cut(src, []byte("\n"))
	if string(bytes.TrimRight(line, "\r \t")) != want {
		return nil, false
	}
	return rest, true
}

// ReadManifest reads and parses dir/SKILL.md.
func ReadManifest(r fsys.Reader, dir string) (Frontmatter, error) {
	b, err := r.ReadFile(filepath.Join(dir, ManifestName))
	if err != nil {
		return Frontmatter{}, err
	}
	return ParseFrontmatter(b)
}
