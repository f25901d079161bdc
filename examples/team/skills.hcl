# The team's shared skills, from the team's skills repository.

skill "team" {
  git     = "https://github.com/example-org/agent-skills"
  ref     = "v2.3.0"
  path    = "skills"
  include = ["code-review", "incident-report", "migration-plan"]
  auth    = secret("env:GITHUB_TOKEN")
}

# Skills go to the tools that keep a skills folder; every tool gets the hub.
link "team-skills" {
  tools  = setintersection(var.agents, ["claude", "codex", "cursor", "gemini", "opencode"])
  skills = ["*"]
}

link "team-hub" {
  tools = var.agents
  hub   = true
}

# The API project's own files (.mcp.json, .cursor/mcp.json) get the database
# server directly, so it works without the hub too.
link "api-project" {
  tools    = ["claude", "cursor"]
  services = ["api-db"]
  project  = "${var.work}/api-server"
}
