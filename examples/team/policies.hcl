# What the hub lets clients see and call.

policy "github" {
  disabled_tools = ["delete_repository", "merge_*", "push_files"]
}

policy "linear" {
  enabled_tools = ["list_*", "get_*", "search_*", "create_comment"]
}

policy "sentry" {
  enabled = false # switched off until the new token lands
}
