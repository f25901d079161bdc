package provider

import (
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
)

// CanReference reports whether p has a syntax for secret references at
// all: whether it can write a stdio server whose env holds one. Antigravity
// CLI, Zed, Claude Desktop and others cannot; their users reach a service
// with a secret through the chronicle hub. It asks the provider's Render,
// so the answer is the one the plan gets.
func CanReference(p Provider) bool {
	probe := Entry{Name: "probe", Enabled: true, Definition: service.Definition{
		Transport: service.Stdio, Command: "probe",
		Env: map[string]secret.Value{"PROBE": secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: "PROBE"})},
	}}
	_, err := p.Render(probe)
	return err == nil
}
