# Values that differ per machine: override with --var or CHRONICLE_VAR_<name>.

variable "work" {
  type        = string
  default     = "~/work"
  description = "Where the team's repositories are checked out."
}

variable "agents" {
  type        = list(string)
  default     = ["claude", "codex", "cursor", "gemini", "vscode"]
  description = "The tools that get the hub and the team skills."

  validation {
    condition     = length(var.agents) > 0
    error_message = "List at least one tool."
  }
}

chronicle {
  projects = ["${var.work}/api-server", "${var.work}/web"]
}
