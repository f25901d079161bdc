// o200k-reference.mjs writes hub/tokens/testdata/o200k-reference.json: texts
// and their o200k_base token counts by the npm package "tiktoken" (WASM
// bindings of OpenAI's own Rust tiktoken), the reference the Go tokenizer is
// tested against. Run by o200k-reference.sh, which installs it in a
// temporary directory; the tests read only the committed file.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";

const [, , modules, root] = process.argv;
const require = createRequire(join(modules, "noop.js"));
const { get_encoding } = require("tiktoken");
const enc = get_encoding("o200k_base");

// Texts that exercise the pre-tokenizer: case, contractions, digits, CJK,
// emoji, runs of white space and newlines, and a special token as text.
const texts = [
  "hello world",
  "Hello, world! search_tools finds tools by meaning.",
  "They're here, we'll see: it's 12345678 or 3.14159.",
  "HTTPServer listIssues get_file_contents create-pull-request a.b.c",
  "東京の天気は？ Привет, мир! مرحبا 🌍🚀👩‍💻",
  "line one\n\n\n    indented\tand tabbed   \r\n  trailing   ",
  "<|endoftext|> is text here",
  '{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}',
];
const dir = join(root, "hub/search/testdata/catalogue");
for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
  const rec = JSON.parse(readFileSync(join(dir, file), "utf8"));
  // Every fifth tool: a spread of real definitions without a huge file.
  rec.tools.forEach((t, i) => {
    if (i % 5 === 0) {
      texts.push(JSON.stringify({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
    }
  });
}
const out = texts.map((text) => ({ text, tokens: enc.encode_ordinary(text).length }));
enc.free();
writeFileSync(join(root, "hub/tokens/testdata/o200k-reference.json"), JSON.stringify(out, null, 1) + "\n");
console.log(`${out.length} texts, ${out.reduce((n, t) => n + t.tokens, 0)} tokens`);
