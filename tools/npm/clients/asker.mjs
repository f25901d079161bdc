// A session-era MCP server over stdio, with the official TypeScript SDK
// (1.x), that asks its client mid-call. Run by hub/crossera_test.go as an
// upstream of the hub:
//
//   node asker.mjs
//
// Its tool "ask" reports progress 1, asks the client for approval
// (elicitation/create), reports progress 2 and answers with the client's
// answer; its prompt "ask" asks the same. The SDK writes each message in
// turn on stdout, so the progress comes before the question and before the
// result.

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ElicitResultSchema } from "@modelcontextprotocol/sdk/types.js";

const server = new McpServer({ name: "asker", version: "1.0.0" });

async function approval(extra) {
  const res = await extra.sendRequest(
    {
      method: "elicitation/create",
      params: {
        message: "Approve?",
        requestedSchema: { type: "object", properties: { approve: { type: "boolean" } } },
      },
    },
    ElicitResultSchema,
  );
  return `${res.action}, approve=${res.content?.approve}`;
}

async function progress(extra, n) {
  const token = extra._meta?.progressToken;
  if (token !== undefined) {
    await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: n } });
  }
}

server.registerTool("ask", { description: "Asks for approval mid-call, with progress before and after." }, async (extra) => {
  await progress(extra, 1);
  const answer = await approval(extra);
  await progress(extra, 2);
  return { content: [{ type: "text", text: answer }] };
});

server.registerPrompt("ask", { description: "Asks for approval." }, async (extra) => ({
  messages: [{ role: "user", content: { type: "text", text: await approval(extra) } }],
}));

await server.connect(new StdioServerTransport());
