// Package search finds tools by what they do, for the hub's search mode: a
// client that sees only the three meta-tools (search_tools, describe_tools,
// call_tool) asks in words for a tool, reads the schema of the few that
// match, and calls one, instead of carrying every tool's definition in its
// context (the 463 captured tools cost about 143,000 tokens listed in full,
// the meta-tools about 320).
//
// An Index ranks tools with BM25F over six fields of each tool: its name
// (split on "_", "-", "." and camelCase), its service's name, its lead (title
// and first paragraph of the description), the whole description, and its
// parameters' names and descriptions. Words are lower-cased and stemmed
// (Porter2, so "files" finds "file"), a short list of stop words is
// ignored, common abbreviations are spelled out ("PR", "MR", "db", "k8s"),
// and each query term brings, at half weight, the words tools use for the
// same thing ("folder" and "directory", "ticket" and "issue"); a term and
// its related words score as one concept.
//
// The constants were tuned on the tune split of testdata/queries.json with
// internal/retrieval/tune; the held-out split measures the result
// (TestHeldOutRecall, BenchmarkRetrieval, and
// docs/decisions/0010-tool-search-ranking.md for the figures).
//
// The meta-tools' definitions (MetaTools) and the pure functions that build
// their results from an Index (SearchTools, DescribeTools, CheckCall) are
// here too, so the hub only routes calls.
package search
