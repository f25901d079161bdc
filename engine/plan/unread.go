package plan

import "github.com/chronicle-dev/chronicle/engine/scan"

// cannotRead reports that the change at addr cannot be planned because its
// tool's file cannot be read or parsed.
func (b *builder) cannotRead(addr, tool, file string, err error) {
	b.unreadable[file] = true
	b.diag("error", addr, "Cannot read "+tool+"'s config", "%s (chronicle never writes a file it cannot read and parse)", err)
}

// unread says what the plan could not see, as scan reports it: a tool file
// or skills folder that could not be read is an error when a link names
// the tool (the plan would act on a tool it cannot see whole, and apply
// would fail on it), and a warning otherwise (the tool's entries are not
// listed). A file a change already reported is not reported twice.
func (b *builder) unread(errs []scan.Error) {
	linked := map[string]string{} // tool → the first link that names it
	for _, l := range b.cfg.Links {
		for _, t := range b.cfg.LinkTools(l) {
			if _, ok := linked[t]; !ok {
				linked[t] = l.Name
			}
		}
	}
	for _, e := range errs {
		if b.unreadable[e.File] {
			continue
		}
		b.unreadable[e.File] = true
		if link, ok := linked[e.Tool]; ok {
			b.diag("error", linkAddress(link, e.Tool, "*"), "Cannot read "+e.Tool+"'s config",
				"%s (chronicle never writes a tool it cannot read whole: fix or move the file, or take %s out of the link)", e.Err, e.Tool)
			continue
		}
		b.diag("warning", "", "Cannot read "+e.Tool+"'s config",
			"%s (no link names %s, so nothing is written to it; its entries are not listed)", e.Err, e.Tool)
	}
}
