# Services for everyone, and services that only make sense inside one project.

service "github" {
  command = "npx"
  args    = ["-y", "@modelcontextprotocol/server-github"]
  env = {
    GITHUB_PERSONAL_ACCESS_TOKEN = secret("env:GITHUB_TOKEN")
  }
  timeout = "90s"
}

service "linear" {
  url     = "https://mcp.linear.app/mcp"
  headers = { Authorization = "Bearer ${secret("env:LINEAR_TOKEN")}" }
}

service "sentry" {
  url     = "https://mcp.sentry.dev/mcp"
  headers = { Authorization = "Bearer ${secret("file:~/.config/sentry/token")}" }
}

# Offered by the hub only to clients working under the api-server checkout.
service "api-db" {
  description = "Read-only access to the API's development database"
  command     = "uvx"
  args        = ["postgres-mcp", "--access-mode=restricted"]
  env         = { DATABASE_URI = secret("env:API_DATABASE_URI") }
  project     = "${var.work}/api-server"
}

service "web-e2e" {
  command = "npx"
  args    = ["-y", "@playwright/mcp"]
  project = "${var.work}/web"
}
