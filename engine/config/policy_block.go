package config

import "github.com/hashicorp/hcl/v2"

var policySchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "enabled"}, {Name: "disabled_tools"}, {Name: "enabled_tools"}},
}

func (l *loader) decodePolicy(in instance) {
	d := l.decoderFor(in)
	defer l.finish(d)
	content, diags := in.body.Content(policySchema)
	d.diags = append(d.diags, diags...)
	a := content.Attributes
	p := &Policy{Service: in.name, DeclRange: in.block.DefRange}
	if v, ok := d.boolean(a["enabled"]); ok {
		p.Enabled = &v
	}
	for name, dst := range map[string]*[]string{"disabled_tools": &p.DisabledTools, "enabled_tools": &p.EnabledTools} {
		*dst, _ = d.globList(a[name], "merge_*")
	}
	l.cfg.Policies = append(l.cfg.Policies, p)
}
