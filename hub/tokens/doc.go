// Package tokens measures what a tool definition costs in a model's context:
// the number of o200k_base tokens (the BPE encoding of OpenAI's GPT-4o, o-series
// and GPT-5 models) in the definition as a client passes it to its model.
//
// The encoding is compiled into the binary by github.com/tiktoken-go/tokenizer,
// of which only the o200k codec is linked, so counting works offline. Its
// table (about 200,000 entries) is decoded on the first count, once, not at
// process start: a hub that never counts pays nothing, and one that does pays
// about 7 MB of heap and a few tens of milliseconds once (BenchmarkLoad).
//
// Other model families use tokenizers of their own, so a count here is an
// estimate for them, not a measurement. What their vendors publish:
//   - Anthropic does not publish the tokenizer of its Claude 3 and later
//     models; its older @anthropic-ai/tokenizer package says it "is no longer
//     accurate" for them and is only "a very rough approximation", and the
//     count_tokens endpoint of its API is the exact source. Its release notes
//     for Claude Opus 4.7 say that model's new tokenizer "may use roughly 1x to
//     1.35x as many tokens" as previous Claude models for the same text.
//   - Google documents that for Gemini models "a token is equivalent to about
//     4 characters" and "100 tokens is equal to about 60-80 English words"
//     (ai.google.dev/gemini-api/docs/tokens).
//
// Counts are therefore meant for comparing definitions (a full catalogue
// against the three search meta-tools, one service against another), where
// the same tokenizer on both sides matters more than the family.
package tokens
