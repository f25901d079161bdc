package tokens

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestCountMatchesReference compares Count with OpenAI's own tokenizer
// (the npm package tiktoken, WASM bindings of the Rust tiktoken) on prose,
// code, CJK, emoji, white space and real tool definitions from the
// captured catalogue (bench/catalogue/o200k-reference.sh writes the file).
func TestCountMatchesReference(t *testing.T) {
	b, err := os.ReadFile("testdata/o200k-reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref []struct {
		Text   string `json:"text"`
		Tokens int    `json:"tokens"`
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	if len(ref) < 50 {
		t.Fatalf("only %d reference texts", len(ref))
	}
	total := 0
	for _, r := range ref {
		total += r.Tokens
		if got := Count(r.Text); got != r.Tokens {
			t.Errorf("Count(%.60q…) = %d, tiktoken says %d", r.Text, got, r.Tokens)
		}
	}
	t.Logf("%d texts, %d tokens, all equal to tiktoken's counts", len(ref), total)
}

func TestCountEmptyIsZero(t *testing.T) {
	if n := Count(""); n != 0 {
		t.Errorf("Count(\"\") = %d", n)
	}
}

func TestDefinitionUsesRawSchemaVerbatim(t *testing.T) {
	raw := mcp.NewToolWithRawSchema("gh__search", "Find <code> & more",
		json.RawMessage(`{ "type": "object", "$defs": {"q": {"type": "string"}},
		  "properties": {"q": {"$ref": "#/$defs/q"}} }`))
	want := `{"name":"gh__search","description":"Find <code> & more","inputSchema":{"type":"object","$defs":{"q":{"type":"string"}},"properties":{"q":{"$ref":"#/$defs/q"}}}}`
	if got := DefinitionOf(raw).JSON(); got != want {
		t.Errorf("definition\n got %s\nwant %s", got, want)
	}
	if got, want := Tool(raw), Count(want); got != want {
		t.Errorf("Tool = %d, Count of its definition = %d", got, want)
	}
}

func TestDefinitionOfTypedSchema(t *testing.T) {
	typed := mcp.NewTool("fs__read", mcp.WithDescription("Read a file."),
		mcp.WithString("path", mcp.Required(), mcp.Description("Where.")))
	typed.Annotations.Title = "not counted"
	want := `{"name":"fs__read","description":"Read a file.","inputSchema":{"properties":{"path":{"description":"Where.","type":"string"}},"required":["path"],"type":"object"}}`
	if got := DefinitionOf(typed).JSON(); got != want {
		t.Errorf("definition\n got %s\nwant %s", got, want)
	}
}

func TestDefinitionWithInvalidRawSchemaIsStillCounted(t *testing.T) {
	bad := mcp.NewToolWithRawSchema("x", "", json.RawMessage(`{not json`))
	got := DefinitionOf(bad).JSON()
	if want := `{"name":"x","inputSchema":"{not json"}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if Tool(bad) == 0 {
		t.Error("an invalid schema costs nothing")
	}
}

func TestToolsSums(t *testing.T) {
	a := mcp.NewTool("a", mcp.WithDescription("First tool."))
	b := mcp.NewTool("b", mcp.WithDescription("Second tool, longer description."))
	if got, want := Tools([]mcp.Tool{a, b}), Tool(a)+Tool(b); got != want {
		t.Errorf("Tools = %d, want %d", got, want)
	}
}
