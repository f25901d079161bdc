package gitstatus

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5"
	gitconfig "github.com/go-git/go-git/v5/plumbing/format/config"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// A Status is what git makes of one file.
type Status int

// The statuses of a file.
const (
	// Outside: the file is in no git work tree.
	Outside Status = iota
	// Tracked: git's index holds the file, so a change to it shows in the
	// next diff and commit (whether or not an ignore rule matches it).
	Tracked
	// Ignored: not tracked, and an ignore rule matches it.
	Ignored
	// Untracked: not tracked and not ignored; `git add .` would take it.
	Untracked
)

func (s Status) String() string {
	return [...]string{"outside any git work tree", "tracked by git", "ignored by git", "not ignored by git"}[s]
}

// Of returns the status of the file at path (absolute; it need not exist).
// Ignore rules are read as git reads them: .git/info/exclude, the
// .gitignore files from the work tree's root down to the file's folder, and
// the user's global excludes file (core.excludesFile, else
// $XDG_CONFIG_HOME/git/ignore or ~/.config/git/ignore).
func Of(path string) (Status, error) {
	dir := existingDir(filepath.Dir(path))
	repo, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return Outside, nil
	}
	if err != nil {
		return Outside, err
	}
	wt, err := repo.Worktree()
	if errors.Is(err, git.ErrIsBareRepository) {
		return Outside, nil
	}
	if err != nil {
		return Outside, err
	}
	root := wt.Filesystem.Root()
	rel, err := filepath.Rel(root, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return Outside, nil
	}
	rel = filepath.ToSlash(rel)
	idx, err := repo.Storer.Index()
	if err != nil {
		return Outside, err
	}
	if _, err := idx.Entry(rel); err == nil {
		return Tracked, nil
	} else if !errors.Is(err, index.ErrEntryNotFound) {
		return Outside, err
	}
	if gitignore.NewMatcher(patterns(root, rel)).Match(strings.Split(rel, "/"), false) {
		return Ignored, nil
	}
	return Untracked, nil
}

// patterns returns the ignore rules that apply to rel (slash-separated,
// relative to root), lowest priority first, as git orders them.
func patterns(root, rel string) []gitignore.Pattern {
	ps := globalPatterns()
	ps = append(ps, readPatterns(filepath.Join(root, ".git", "info", "exclude"), nil)...)
	parts := strings.Split(rel, "/")
	for i := range parts {
		// The .gitignore of the root, then of each folder on the way down.
		domain := parts[:i]
		ps = append(ps, readPatterns(filepath.Join(root, filepath.Join(domain...), ".gitignore"), domain)...)
	}
	return ps
}

// globalPatterns returns the rules of the user's global excludes file.
func globalPatterns() []gitignore.Pattern {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil
	}
	file := excludesFile(filepath.Join(home, ".gitconfig"), home)
	if file == "" {
		base := os.Getenv("XDG_CONFIG_HOME")
		if base == "" {
			base = filepath.Join(home, ".config")
		}
		file = filepath.Join(base, "git", "ignore")
	}
	return readPatterns(file, nil)
}

// excludesFile reads core.excludesFile from a git config file through
// go-git's own config decoder, or "".
func excludesFile(file, home string) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	cfg := gitconfig.New()
	if err := gitconfig.NewDecoder(f).Decode(cfg); err != nil {
		return ""
	}
	v := cfg.Section("core").Options.Get("excludesfile")
	if rest, ok := strings.CutPrefix(v, "~/"); ok {
		v = filepath.Join(home, rest)
	}
	return v
}

// readPatterns reads one ignore file: a pattern per line, blank lines and
// # comments skipped (gitignore.ParsePattern handles the rest of the
// syntax). A missing file has none.
func readPatterns(file string, domain []string) []gitignore.Pattern {
	f, err := os.Open(file)
	if err != nil {
		return nil
	}
	defer f.Close()
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps
}

// existingDir returns dir or its nearest existing parent.
func existingDir(dir string) string {
	for {
		if info, err := os.Stat(dir); err == nil && info.IsDir() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return dir
		}
		dir = parent
	}
}
