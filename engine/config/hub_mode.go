package config

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// HubPerService is the value of a link's hub that sends its services
// through the hub one entry per service (decision 0175).
const HubPerService = "per-service"

// hubMode decodes a link's hub: true (the aggregated entry), false
// (none), or "per-service" (one hub entry per listed service). It reads
// the value before any conversion, so that hub = "true" — which HCL would
// turn into a bool — is refused like any other string: a string here
// names a mode, and there is one.
func (d *decoder) hubMode(attr *hcl.Attribute) (whole, perService bool) {
	v, ok := d.value(attr, cty.DynamicPseudoType, "bool or string")
	if !ok {
		return false, false
	}
	switch {
	case v.Type() == cty.Bool:
		return v.True(), false
	case v.Type() == cty.String && v.AsString() == HubPerService:
		return false, true
	case v.Type() == cty.String && (v.AsString() == "true" || v.AsString() == "false"):
		d.errorf(attr.Expr.Range(), "Invalid hub", "hub is a bool or %q: write hub = %s, without quotes.", HubPerService, v.AsString())
	case v.Type() == cty.String:
		d.errorf(attr.Expr.Range(), "Invalid hub", "hub is true (the hub's one entry), false, or %q (one hub entry per listed service), not %q.%s", HubPerService, v.AsString(), didYouMean(v.AsString(), []string{HubPerService}))
	default:
		d.errorf(attr.Expr.Range(), "Invalid hub", "hub is true (the hub's one entry), false, or %q (one hub entry per listed service), not a %s.", HubPerService, v.Type().FriendlyName())
	}
	return false, false
}
