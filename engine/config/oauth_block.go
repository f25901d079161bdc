package config

import (
	"net/url"

	"github.com/hashicorp/hcl/v2"

	"github.com/chronicle-dev/chronicle/engine/service"
)

var oauthBlock = hcl.BlockHeaderSchema{Type: "oauth"}

var oauthSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "client_id"}, {Name: "client_secret"}, {Name: "scopes"},
		{Name: "callback_port"}, {Name: "client_metadata_url"},
	},
}

// decodeOAuth decodes a service's oauth block (at most one, only on a
// service reached at a url). A bare oauth {} is valid: everything else is
// discovered from the server at login.
func decodeOAuth(d *decoder, blocks hcl.Blocks, s *service.Service, hasURL bool) {
	if len(blocks) == 0 {
		return
	}
	if len(blocks) > 1 {
		d.errorf(blocks[1].DefRange, "Duplicate oauth block", "The service %q already has an oauth block at %s; put every setting in one block.", s.Name, blocks[0].DefRange)
	}
	b := blocks[0]
	if !hasURL {
		d.errorf(b.DefRange, "oauth only for remote services", "An oauth block says how to log in to a server reached at a url; %q is started with command.", s.Name)
		return
	}
	content, diags := b.Body.Content(oauthSchema)
	d.diags = append(d.diags, diags...)
	a := content.Attributes
	o := &service.OAuth{}
	o.ClientID, _ = d.str(a["client_id"])
	if attr := a["client_secret"]; attr != nil {
		if v, ok := d.secretStr(attr); ok {
			d.literalSecret(attr, v)
			o.ClientSecret = v
		}
		if a["client_id"] == nil {
			d.errorf(attr.NameRange, "client_secret without client_id", "A client secret belongs to a client registered in advance: set client_id too, or remove client_secret to let chronicle register itself.")
		}
	}
	if a["scopes"] != nil {
		o.Scopes, _ = d.strList(a["scopes"])
		for _, sc := range o.Scopes {
			if !validScope(sc) {
				d.errorf(a["scopes"].Expr.Range(), "Invalid scope", "%q is not an OAuth scope: a scope is printable ASCII without spaces, quotes or backslashes.", sc)
			}
		}
	}
	if attr := a["callback_port"]; attr != nil {
		if p, ok := d.integer(attr); ok {
			if p < 1 || p > 65535 {
				d.errorf(attr.Expr.Range(), "Invalid callback_port", "callback_port must be a port from 1 to 65535, not %d.", p)
			}
			o.CallbackPort = p
		}
	}
	if attr := a["client_metadata_url"]; attr != nil {
		if v, ok := d.str(attr); ok {
			if u, err := url.Parse(v); err != nil || u.Scheme != "https" || u.Host == "" || u.Path == "" || u.Path == "/" {
				d.errorf(attr.Expr.Range(), "Invalid client_metadata_url", "%q is not an https URL with a path: a Client ID Metadata Document is served at one.", v)
			}
			o.ClientMetadataURL = v
		}
	}
	s.OAuth = o
}

// validScope reports whether s is a scope token (RFC 6749 §3.3).
func validScope(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < 0x21 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}
