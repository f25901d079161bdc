package provider

// A Succession says that a tool's vendor moved its users to another tool:
// Gemini CLI's individual users to Antigravity CLI, Windsurf's to Devin CLI.
// Scan reports each server the old tool has and its successor lacks, with
// the link that keeps both the same; both tools stay supported. Which tool
// succeeds which is provider knowledge (package providers): the engine
// receives it as data.
type Succession struct {
	From string // the tool users were moved from, e.g. "gemini"
	To   string // the tool they were moved to, e.g. "antigravity"
}
