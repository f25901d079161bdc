package config

import (
	"path"

	"github.com/hashicorp/hcl/v2"
)

var profileSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "services"}, {Name: "tools"}, {Name: "exposure"}},
}

// decodeProfile decodes a profile block: a toolset the hub serves at its own
// endpoint. Its services are checked against the declared ones with the
// other references (checkReferences).
func (l *loader) decodeProfile(in instance) {
	d := l.decoderFor(in)
	defer l.finish(d)
	content, diags := in.body.Content(profileSchema)
	d.diags = append(d.diags, diags...)
	a := content.Attributes
	p := &Profile{Name: in.name, DeclRange: in.block.DefRange}
	p.Services, _ = d.strList(a["services"])
	p.Tools, _ = d.globList(a["tools"], "github__*pull_request*")
	if a["exposure"] != nil {
		p.Exposure, _ = d.oneOf(a["exposure"], ExposeAll, ExposeSearch, ExposeAuto)
	}
	if a["services"] != nil {
		l.profileServices[p] = a["services"].Expr.Range()
	}
	l.cfg.Profiles = append(l.cfg.Profiles, p)
}

// globList decodes a list of glob patterns (path.Match syntax: *, ? and
// [...]); example shows the user a valid one.
func (d *decoder) globList(attr *hcl.Attribute, example string) ([]string, bool) {
	globs, ok := d.strList(attr)
	if !ok {
		return nil, false
	}
	for _, g := range globs {
		if _, err := path.Match(g, ""); err != nil || g == "" {
			d.errorf(attr.Expr.Range(), "Invalid tool pattern", "%q is not a valid glob pattern (use * and ?, e.g. %q).", g, example)
			ok = false
		}
	}
	return globs, ok
}
