package wire

// SupportedVersions are the MCP protocol revisions the hub speaks.
// HTTP and stdio accept the same list; 2026-07-28 is stateless.
var SupportedVersions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}

func Supported(v string) bool {
	for _, s := range SupportedVersions {
		if s == v {
			return true
		}
	}
	return false
}

// MethodTasksUpdate is the 2026-07-28 tasks extension's tasks/update
// (SEP-2663), which mcp-go does not name.
const MethodTasksUpdate = "tasks/update"
