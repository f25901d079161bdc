package plan

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/provider"
)

// projectMissing reports whether link l names a project folder this
// machine does not have. That is a note, never an error and never a
// mkdir: a repository followed by several machines names the projects of
// all of them, and each has its own.
func (b *builder) projectMissing(l *config.Link) bool {
	if l.Project == "" {
		return false
	}
	info, err := b.in.Reader.Stat(l.Project)
	var why string
	switch {
	case err == nil && info.IsDir():
		return false
	case err == nil:
		why = "is not a folder"
	case errors.Is(err, fs.ErrNotExist):
		why = "does not exist"
	default:
		why = "cannot be read (" + err.Error() + ")"
	}
	b.elsewhere[l] = true
	b.note("link."+l.Name, "Project folder not on this machine",
		"project folder %s %s on this machine; link %q writes nothing there (chronicle never creates a project folder), and what it wrote there before stays recorded.", l.Project, why, l.Name)
	return true
}

// keepUnplanned marks as kept the state's records of link l for the tools
// this machine does not plan (planned lists those it does): the tools
// tools = ["*"] leaves out because they are not present here, or, when
// the link's project folder is missing, every tool. A record is kept only
// while the configuration still wants it there — the link still names the
// tool or has "*", still takes the service, skill or hub entry, and would
// still put it at the same place — so what a changed link no longer wants
// is removed as before.
func (b *builder) keepUnplanned(l *config.Link, planned []string) {
	prefix := "link." + l.Name + "["
	var wanted map[string]bool // what the link takes: hub, service.NAME, hub.NAME, skill.NAME
	consider := func(addr, tool string, at func(p provider.Provider, rest string) bool) {
		if !strings.HasPrefix(addr, prefix) || slices.Contains(planned, tool) || !(l.Names(tool) || l.AllTools()) {
			return
		}
		if wanted == nil {
			wanted = b.wanted(l)
		}
		rest, ok := strings.CutPrefix(addr, linkAddress(l.Name, tool, ""))
		p, known := b.tools[tool]
		if !ok || !known || !wanted[rest] || !at(p, rest) {
			return
		}
		b.kept[addr] = true
		if planned != nil {
			b.absent[tool] = append(b.absent[tool], addr)
		}
	}
	for _, e := range b.st.Entries {
		consider(e.Address, e.Tool, func(p provider.Provider, _ string) bool {
			loc, ok := b.entryLocation(p, l.Project, l.Local)
			return ok && loc.File == e.File && slices.Equal(loc.KeyPath, e.KeyPath)
		})
	}
	for _, k := range b.st.Links {
		consider(k.Address, k.Tool, func(p provider.Provider, rest string) bool {
			dir, ok := skillDir(p, b.in.Env, l.Project)
			return ok && k.Path == filepath.Join(dir.Dir, strings.TrimPrefix(rest, "skill."))
		})
	}
}

// wanted returns what link l takes, as the ends of its addresses: hub,
// service.NAME (hub.NAME with hub = "per-service"), skill.NAME.
func (b *builder) wanted(l *config.Link) map[string]bool {
	out := map[string]bool{"hub": l.Hub}
	for _, s := range b.cfg.LinkServices(l) {
		if l.PerService {
			out["hub."+s] = true
		} else {
			out["service."+s] = true
		}
	}
	for _, s := range linkedSkills(b.cfg, l) {
		out["skill."+s] = true
	}
	return out
}

// noteAbsent says once per tool that tools = ["*"] leaves it out on this
// machine and that what chronicle wrote for it stays.
func (b *builder) noteAbsent() {
	for _, tool := range sortedKeys(b.absent) {
		addrs := b.absent[tool]
		slices.Sort(addrs)
		shown := strings.Join(addrs[:min(len(addrs), 3)], ", ")
		if len(addrs) > 3 {
			shown += fmt.Sprintf(" and %d more", len(addrs)-3)
		}
		b.note("", tool+" is not present on this machine",
			"tools = [\"*\"] leaves %s out here (neither its config file nor its program on PATH was found); what chronicle wrote for it stays recorded and in place, not removed for that reason: %s.", tool, shown)
	}
}
