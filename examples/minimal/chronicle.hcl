# The smallest useful configuration: one MCP server, offered to two tools
# through the chronicle hub (`chronicle serve --stdio`).

service "filesystem" {
  command = "npx"
  args    = ["-y", "@modelcontextprotocol/server-filesystem", abspath("~/work")]
}

link "hub" {
  tools = ["claude", "cursor"]
  hub   = true
}
