# A dotfiles repository: keep this folder in git, clone it on every machine
# and run `chronicle apply` (or `chronicle sync`) there.

locals {
  agents = ["claude", "codex", "cursor", "gemini"]
}

# Skills live beside this file and are copied into ~/.chronicle/skills.
skill "code-review" {
  source = "./skills/code-review"
}

skill "release-notes" {
  source = "./skills/release-notes"
}

service "github" {
  command = "npx"
  args    = ["-y", "@modelcontextprotocol/server-github"]
  env = {
    GITHUB_PERSONAL_ACCESS_TOKEN = secret("env:GITHUB_TOKEN")
  }
}

service "context7" {
  url = "https://mcp.context7.com/mcp"
}

policy "github" {
  disabled_tools = ["delete_*", "merge_pull_request"]
}

# Every skill into every agent's skills folder (symlinks to the central copy).
link "skills" {
  tools  = local.agents
  skills = ["*"]
}

# Claude Code and Cursor get the services written straight into their own
# configs, each in its own secret syntax (${GITHUB_TOKEN}, ${env:GITHUB_TOKEN}).
link "direct" {
  tools    = ["claude", "cursor"]
  services = ["github", "context7"]
}

# Codex and Gemini reach everything through the hub.
link "hub" {
  tools = ["codex", "gemini"]
  hub   = true
}
