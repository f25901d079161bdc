package config

import (
	"github.com/chronicle-dev/chronicle/engine/gitsource"
	"github.com/hashicorp/hcl/v2"
)

var skillSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "source"}, {Name: "git"}, {Name: "ref"}, {Name: "path"},
		{Name: "include"}, {Name: "auth"}, {Name: "max_size"}, {Name: "origin"},
	},
}

var gitOnly = []string{"ref", "path", "include", "auth", "max_size"}

func (l *loader) decodeSkill(in instance) {
	d := l.decoderFor(in)
	defer l.finish(d)
	b := in.block
	content, diags := in.body.Content(skillSchema)
	d.diags = append(d.diags, diags...)
	a := content.Attributes
	s := &Skill{Name: in.name, MaxSize: gitsource.DefaultMaxSize, DeclRange: b.DefRange}

	switch {
	case a["source"] != nil && a["git"] != nil:
		d.errorf(b.DefRange, "Both source and git", "The skill %q sets both source (a local folder) and git (a repository). Keep one.", s.Name)
	case a["source"] == nil && a["git"] == nil:
		d.errorf(b.DefRange, "Missing source or git", "The skill %q needs source (a folder beside the configuration) or git (an https:// repository).", s.Name)
	}

	s.Origin, _ = d.str(a["origin"])
	if a["source"] != nil {
		s.Source, _ = d.path(a["source"])
		for _, name := range gitOnly {
			if a[name] != nil {
				d.errorf(a[name].NameRange, "Attribute only for git skills", "%q applies to skills taken from git; %q comes from a local folder.", name, s.Name)
			}
		}
	}
	if a["git"] != nil {
		if g, ok := d.str(a["git"]); ok {
			if problem := gitsource.Check(g); problem != "" {
				d.errorf(a["git"].Expr.Range(), "Unsupported git URL", "%s", problem)
			}
			s.Git = g
		}
		s.Ref, _ = d.str(a["ref"])
		if a["path"] != nil {
			if p, ok := d.str(a["path"]); ok {
				if p != "" && p != "." && !isRelativeInside(p) {
					d.errorf(a["path"].Expr.Range(), "Invalid path", "%q must be a folder inside the repository: relative, without \"..\".", p)
				}
				s.Path = p
			}
		}
		if a["include"] != nil {
			if names, ok := d.strList(a["include"]); ok {
				for _, n := range names {
					if problem := checkName("skill", n); problem != "" {
						d.errorf(a["include"].Expr.Range(), "Invalid skill name", "%s", problem)
					}
				}
				s.Include = names
			}
		}
		if a["auth"] != nil {
			s.Auth, _ = d.secretStr(a["auth"])
			d.literalSecret(a["auth"], s.Auth)
		}
		if a["max_size"] != nil {
			if n, ok := d.size(a["max_size"]); ok {
				s.MaxSize = n
			}
		}
	}
	l.cfg.Skills = append(l.cfg.Skills, s)
}
