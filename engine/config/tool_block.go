package config

import (
	"slices"

	"github.com/hashicorp/hcl/v2"
)

var toolSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "format"}, {Name: "config"}, {Name: "servers_key"}, {Name: "skills_dir"},
		{Name: "project_config"}, {Name: "project_skills_dir"},
	},
}

func (l *loader) decodeTool(ctx *hcl.EvalContext, b *hcl.Block) {
	d := l.decoder(ctx)
	defer l.finish(d)
	t := &Tool{Name: b.Labels[0], DeclRange: b.DefRange}
	if slices.Contains(l.opts.KnownTools, t.Name) {
		d.errorf(b.LabelRanges[0], "Tool already known", "chronicle knows %q built in; a tool block declares a tool it does not know. Choose another name.", t.Name)
		return
	}
	content, diags := b.Body.Content(toolSchema)
	d.diags = append(d.diags, diags...)
	a := content.Attributes
	if a["format"] == nil {
		d.errorf(b.DefRange, "Missing required argument", "The tool %q needs format = \"json\", \"jsonc\" or \"toml\".", t.Name)
	} else {
		t.Format, _ = d.oneOf(a["format"], FormatJSON, FormatJSONC, FormatTOML)
	}
	if a["config"] != nil {
		t.Config, _ = d.path(a["config"])
	}
	if a["skills_dir"] != nil {
		t.SkillsDir, _ = d.path(a["skills_dir"])
	}
	for name, dst := range map[string]*string{"project_config": &t.ProjectConfig, "project_skills_dir": &t.ProjectSkillsDir} {
		if a[name] == nil {
			continue
		}
		if s, ok := d.str(a[name]); ok {
			if !isRelativeInside(s) {
				d.errorf(a[name].Expr.Range(), "Invalid project path", "%q must be relative to the project folder, without \"..\".", s)
			}
			*dst = s
		}
	}
	t.ServersKey = "mcpServers"
	if t.Format == FormatTOML {
		t.ServersKey = "mcp_servers"
	}
	if a["servers_key"] != nil {
		if s, ok := d.str(a["servers_key"]); ok {
			if s == "" {
				d.errorf(a["servers_key"].Expr.Range(), "Empty servers_key", "servers_key is the dotted path to the map of servers, e.g. \"mcpServers\" or \"mcp.servers\".")
			}
			t.ServersKey = s
		}
	}
	if t.Config == "" && t.SkillsDir == "" && t.ProjectConfig == "" && t.ProjectSkillsDir == "" {
		d.errorf(b.DefRange, "Tool has nothing to manage", "The tool %q needs config (its MCP config file) or skills_dir (its skills folder), or their project_ forms.", t.Name)
	}
	l.cfg.Tools = append(l.cfg.Tools, t)
}
