// A scripted MCP client session through the chronicle hub, with the official
// TypeScript SDK: 1.x (@modelcontextprotocol/sdk) or the 2.x client
// (@modelcontextprotocol/client). Run by hub/clients_test.go:
//
//   node session.mjs SDK TRANSPORT TARGET VERSION SCENARIO
//
// SDK is 1 or 2; TRANSPORT is http, sse or stdio; TARGET is the endpoint URL,
// or for stdio a JSON array [command, ...args]; VERSION is the protocol
// revision to speak ("default" lets the SDK choose). It prints one JSON
// object: what the session observed, for the test to assert on.

const [sdk, transportKind, target, version, scenario] = process.argv.slice(2);

const v1 = sdk === "1";
const lib = v1
  ? {
      ...(await import("@modelcontextprotocol/sdk/client/index.js")),
      ...(await import("@modelcontextprotocol/sdk/client/streamableHttp.js")),
      ...(await import("@modelcontextprotocol/sdk/client/sse.js")),
      ...(await import("@modelcontextprotocol/sdk/client/stdio.js")),
      types: await import("@modelcontextprotocol/sdk/types.js"),
    }
  : {
      ...(await import("@modelcontextprotocol/client")),
      ...(await import("@modelcontextprotocol/client/stdio")),
    };

const out = { sdk, transport: transportKind, scenario, errors: [] };

function transport() {
  if (transportKind === "stdio") {
    const [command, ...args] = JSON.parse(target);
    return new lib.StdioClientTransport({ command, args, env: process.env, stderr: "inherit" });
  }
  // HUB_TOKEN: the hub's token, sent as a hub entry chronicle writes sends
  // it (the hub asks local HTTP clients for it; stdio needs none).
  const opts = process.env.HUB_TOKEN ? { requestInit: { headers: { Authorization: "Bearer " + process.env.HUB_TOKEN } } } : undefined;
  if (transportKind === "sse") return new lib.SSEClientTransport(new URL(target), opts);
  return new lib.StreamableHTTPClientTransport(new URL(target), opts);
}

const capabilities = {
  sampling: {},
  elicitation: { form: {} },
  roots: { listChanged: true },
};
const options = { capabilities };
if (!v1 && version === "2026-07-28") options.versionNegotiation = { mode: { pin: version } };
else if (!v1 && version !== "default") options.supportedProtocolVersions = [version];
const client = new lib.Client({ name: `ts-sdk-${sdk}`, version: "1.0.0" }, options);
let closing = false;
client.onerror = (e) => {
  // Closing ends open streams, which the SDKs report as aborted.
  if (!closing) out.errors.push(String(e?.message ?? e));
};

// Requests the hub forwards from upstreams, and notifications.
function onRequest(method, v1schema, handler) {
  if (v1) client.setRequestHandler(lib.types[v1schema], handler);
  else client.setRequestHandler(method, handler);
}
function onNotification(method, v1schema, handler) {
  if (v1) client.setNotificationHandler(lib.types[v1schema], handler);
  else client.setNotificationHandler(method, handler);
}
onRequest("sampling/createMessage", "CreateMessageRequestSchema", async () => ({
  model: "test-model",
  role: "assistant",
  content: { type: "text", text: "sampled-by-the-test-client" },
}));
// ELICIT_ACTION=decline (or cancel) answers every elicitation so instead.
onRequest("elicitation/create", "ElicitRequestSchema", async () =>
  process.env.ELICIT_ACTION
    ? { action: process.env.ELICIT_ACTION }
    : { action: "accept", content: { name: "Ada", check: true, firstLine: "roses", integer: 42 } },
);
onRequest("roots/list", "ListRootsRequestSchema", async () => ({
  roots: [{ uri: "file:///test/client/root", name: "the test root" }],
}));
const logs = [];
onNotification("notifications/message", "LoggingMessageNotificationSchema", (n) => logs.push(n.params));
const updates = [];
onNotification("notifications/resources/updated", "ResourceUpdatedNotificationSchema", (n) => updates.push(n.params.uri));

const t = transport();
// Note the revision the client settles on, on every transport.
let negotiated = null;
const setVersion = t.setProtocolVersion?.bind(t);
t.setProtocolVersion = (v) => {
  negotiated = v;
  setVersion?.(v);
};
if (v1 && version !== "default") {
  // The 1.x SDK has no option to pin a revision: ask for it in initialize.
  const send = t.send.bind(t);
  t.send = (msg, opts) => {
    if (msg.method === "initialize") msg.params.protocolVersion = version;
    return send(msg, opts);
  };
}

// callTool takes (params, resultSchema, options) in 1.x and (params,
// options) in 2.x.
function call(params, opts) {
  return v1 ? client.callTool(params, undefined, opts) : client.callTool(params, opts);
}

function text(res) {
  return (res.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
}

function waitFor(cond, what) {
  return new Promise((resolve, reject) => {
    const tick = setInterval(() => {
      if (cond()) {
        clearInterval(tick);
        clearTimeout(limit);
        resolve();
      }
    }, 20);
    const limit = setTimeout(() => {
      clearInterval(tick);
      reject(new Error("gave up waiting for " + what));
    }, 20000);
  });
}

const E = "everything__";
try {
  await client.connect(t);
  out.protocolVersion = client.getNegotiatedProtocolVersion?.() ?? negotiated ?? t.protocolVersion ?? null;
  const tools = await client.listTools();
  out.tools = tools.tools.map((x) => x.name);
  if (scenario !== "list") {
    const echo = await client.callTool({ name: E + "echo", arguments: { message: "hello hub" } });
    out.echo = text(echo);
  }

  switch (scenario) {
    case "basic":
    case "list":
      break;
    case "progress": {
      const progress = [];
      const res = await call(
        { name: E + "trigger-long-running-operation", arguments: { duration: 0.3, steps: 3 } },
        { onprogress: (p) => progress.push(p) },
      );
      out.progress = progress.length;
      out.result = text(res);
      break;
    }
    case "cancel": {
      const ac = new AbortController();
      const pending = call(
        { name: E + "trigger-long-running-operation", arguments: { duration: 5, steps: 50 } },
        { signal: ac.signal, onprogress: () => ac.abort("the test cancels") },
      );
      try {
        await pending;
        out.cancelled = false;
      } catch (e) {
        out.cancelled = true;
      }
      // A later call still works, and no response for the cancelled one
      // arrives in the meantime (the SDK would report an unknown id).
      out.after = text(await client.callTool({ name: E + "echo", arguments: { message: "after" } }));
      break;
    }
    case "sampling":
      out.result = text(await client.callTool({ name: E + "trigger-sampling-request", arguments: { prompt: "say hi", maxTokens: 10 } }));
      break;
    case "elicitation":
      out.result = text(await client.callTool({ name: E + "trigger-elicitation-request", arguments: {} }));
      break;
    case "roots":
      out.result = text(await client.callTool({ name: E + "get-roots-list", arguments: {} }));
      break;
    case "resources": {
      const tpl = await client.listResourceTemplates();
      out.templates = tpl.resourceTemplates.map((x) => x.uriTemplate);
      const read = await client.readResource({ uri: "demo://resource/dynamic/text/1" });
      out.read = read.contents.map((c) => c.text ?? "").join("");
      const prompts = await client.listPrompts();
      out.prompts = prompts.prompts.map((p) => p.name);
      const c = await client.complete({
        ref: { type: "ref/prompt", name: E + "completable-prompt" },
        argument: { name: "department", value: "E" },
      });
      out.completion = c.completion.values;
      break;
    }
    case "subscribe": {
      const uri = "demo://resource/dynamic/text/1";
      await client.subscribeResource({ uri });
      await client.callTool({ name: E + "toggle-subscriber-updates", arguments: {} });
      await waitFor(() => updates.includes(uri), "resources/updated");
      out.updates = updates.length;
      await client.callTool({ name: E + "toggle-subscriber-updates", arguments: {} });
      await client.unsubscribeResource({ uri });
      break;
    }
    case "logging": {
      await client.setLoggingLevel(process.env.LOG_LEVEL || "debug");
      await client.callTool({ name: E + "toggle-simulated-logging", arguments: {} });
      await waitFor(() => logs.length >= 3, "three log messages");
      await client.callTool({ name: E + "toggle-simulated-logging", arguments: {} });
      out.loggers = [...new Set(logs.map((l) => l.logger))];
      out.levels = [...new Set(logs.map((l) => l.level))];
      break;
    }
    default:
      throw new Error("unknown scenario " + scenario);
  }
} catch (e) {
  out.errors.push(String(e?.message ?? e));
} finally {
  closing = true;
  await client.close().catch(() => {});
  process.stdout.write(JSON.stringify(out) + "\n");
}
