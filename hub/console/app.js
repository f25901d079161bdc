// chronicle hub console. Plain JavaScript, no dependencies, no build step.
//
// Every string that comes from the hub (and so from an upstream or a file)
// is put into the page as text (textContent, never parsed as markup), so a tool
// description such as <img src=x onerror=alert(1)> shows as those characters.
"use strict";

(function () {
  // ---- token and fetch ----------------------------------------------------

  const TOKEN_KEY = "chronicle-hub-token";

  // serve prints http://HOST:PORT/#token=…: keep it for this tab's session
  // and take it out of the address bar.
  (function takeToken() {
    const m = /(?:^#|&)token=([^&]+)/.exec(location.hash);
    if (m) {
      sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(m[1]));
      history.replaceState(null, "", location.pathname + location.search);
    }
  })();

  function headers(extra) {
    const h = Object.assign({ Accept: "application/json" }, extra || {});
    const t = sessionStorage.getItem(TOKEN_KEY);
    if (t) h.Authorization = "Bearer " + t;
    return h;
  }

  class APIError extends Error {
    constructor(status, message, body) {
      super(message);
      this.status = status;
      this.body = body;
    }
  }

  async function api(path, opts) {
    opts = opts || {};
    const init = { method: opts.method || "GET", headers: headers(), signal: opts.signal, cache: "no-store" };
    if (opts.body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(opts.body);
    }
    const res = await fetch(path, init);
    const text = await res.text();
    let body = null;
    try { body = text ? JSON.parse(text) : null; } catch (e) { body = null; }
    if (res.status === 401) {
      showAuth();
      throw new APIError(401, "this hub needs a token", body);
    }
    if (!res.ok) {
      const msg = body && body.error ? body.error : (text.trim() || res.statusText);
      throw new APIError(res.status, msg, body);
    }
    return body;
  }

  // The "connect a client" snippet: the entry a client chronicle does not
  // configure needs, in the shape most tools take (url and headers). On the
  // page the token is hidden; Copy copies it whole.
  function connectSnippet(st, token) {
    const entry = { url: st.endpoint };
    if (st.client_token) entry.headers = { Authorization: "Bearer " + token };
    return JSON.stringify({ chronicle: entry }, null, 2);
  }

  function showConnect(st) {
    const token = sessionStorage.getItem(TOKEN_KEY) || "";
    document.getElementById("connect-snippet").textContent = connectSnippet(st, "******");
    document.getElementById("connect-copy").onclick = () => {
      navigator.clipboard.writeText(connectSnippet(st, token)).then(
        () => problem(null),
        () => problem("the browser did not let the console copy: select the text and copy it, with the token from ~/.chronicle/hub.token"));
    };
  }

  function showAuth() { document.getElementById("auth").hidden = false; }

  document.getElementById("auth-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const v = document.getElementById("auth-token").value.trim();
    if (v) sessionStorage.setItem(TOKEN_KEY, v);
    document.getElementById("auth").hidden = true;
    refresh();
    startLog();
  });

  function problem(err) {
    const p = document.getElementById("problem");
    if (!err) { p.hidden = true; p.textContent = ""; return; }
    if (err.status === 401) return;
    p.textContent = String(err.message || err);
    p.hidden = false;
  }

  // ---- DOM helpers ----------------------------------------------------------

  // el builds an element: attrs are attributes (or properties for on*
  // handlers given as functions); children are nodes or strings (text).
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (typeof v === "function") e.addEventListener(k.replace(/^on/, ""), v);
      else if (k === "text") e.textContent = String(v);
      else e.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children.flat()) {
      if (c === undefined || c === null || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

  function badge(text, kind) { return el("span", { class: "badge " + (kind || String(text)) }, String(text)); }

  function when(t) {
    if (!t) return "";
    const d = new Date(t);
    return isNaN(d) ? String(t) : d.toLocaleString();
  }

  function json(v) { return JSON.stringify(v, null, 2); }

  // ---- views ----------------------------------------------------------------

  const VIEWS = ["overview", "services", "tools", "log", "skills", "review"];
  const loaders = {};
  let current = "";

  function show(view) {
    if (!VIEWS.includes(view)) view = "overview";
    if (view !== current) {
      // A view opens as new: the search text of the one left behind goes.
      for (const id of ["tool-search", "skill-filter"]) document.getElementById(id).value = "";
      found = null;
    }
    current = view;
    for (const v of VIEWS) {
      const sec = document.getElementById("view-" + v);
      sec.hidden = v !== view;
      if (v !== view) sec.removeAttribute("aria-busy");
    }
    for (const a of document.querySelectorAll("nav a")) {
      if (a.dataset.view === view) a.setAttribute("aria-current", "page");
      else a.removeAttribute("aria-current");
    }
    // aria-busy tells assistive technology (and tests) that the view's
    // data is on its way; controls drawn before it arrives are replaced.
    const section = document.getElementById("view-" + view);
    if (!loaders[view]) { section.setAttribute("aria-busy", "false"); return; }
    section.setAttribute("aria-busy", "true");
    loaders[view]().catch(problem).finally(() => section.setAttribute("aria-busy", "false"));
  }

  window.addEventListener("hashchange", () => show(location.hash.slice(1)));

  // ---- overview and services ------------------------------------------------

  let status = null;
  let tools = [];

  function tokensOf(x) { return typeof x.tokens === "number" ? x.tokens : null; }

  function toolTokens(service) {
    let sum = null;
    for (const t of tools) {
      if ((service === undefined || t.service === service) && typeof t.tokens === "number") sum = (sum || 0) + t.tokens;
    }
    return sum;
  }

  async function loadStatus() {
    const [st, ts] = await Promise.all([api("/api/mcp/status"), api("/api/mcp/tools")]);
    status = st;
    tools = ts || [];
    problem(null);
  }

  // loginButton is the Log in button of a service whose login is
  // required: the hub starts the login as `chronicle auth login` does and
  // answers the authorization URL, which opens in a new tab; the hub
  // finishes the login when the authorization server redirects to the
  // login's loopback listener. The page then polls the status until the
  // service is logged in, and draws the view again.
  function loginButton(name, out) {
    const btn = el("button", { type: "button", "data-testid": "service-login" }, "Log in to " + name);
    btn.addEventListener("click", async () => {
      // Opened within the click, before the request, so that no popup
      // blocker takes it for an unasked window.
      const tab = window.open("", "_blank");
      btn.disabled = true;
      out.textContent = "Starting the login…";
      let r;
      try {
        r = await api("/api/mcp/services/" + encodeURIComponent(name) + "/login", { method: "POST", body: {} });
      } catch (e) {
        if (tab) tab.close();
        out.textContent = "The login did not start: " + e.message;
        btn.disabled = false;
        return;
      }
      if (tab) {
        tab.opener = null;
        tab.location.href = r.authorization_url;
      }
      out.replaceChildren("Finish the login in the new tab (or ",
        el("a", { href: r.authorization_url, target: "_blank", rel: "noopener noreferrer", "data-testid": "login-link" }, "open the login page"),
        "). This page shows the service once the hub has the login.");
      const view = current;
      for (let i = 0; i < 300 && current === view; i++) {
        await new Promise((res) => setTimeout(res, 2000));
        let st;
        try { st = await api("/api/mcp/status"); } catch (e) { continue; }
        const s = (st.services || []).find((x) => x.name === name);
        if (s && s.login === "logged in") {
          out.textContent = name + ": logged in.";
          if (current === view) show(view);
          return;
        }
      }
      btn.disabled = false;
    });
    return btn;
  }

  // loginState is the login badge of a service with an oauth block.
  function loginState(s) {
    if (!s.login) return null;
    return badge(s.login, s.login === "login required" ? "login-required" : "logged-in");
  }

  // loginAction is the Log in button, with the line that tells how the
  // login goes, of a service whose login is required; null otherwise.
  function loginAction(s) {
    if (s.login !== "login required") return null;
    const out = el("div", { class: "muted", "aria-live": "polite" });
    return [" ", loginButton(s.name, out), out];
  }

  loaders.overview = async function () {
    await loadStatus();
    const facts = clear(document.getElementById("hub-facts"));
    const cost = tokensOf(status) !== null ? tokensOf(status) : toolTokens();
    const rows = [
      ["MCP endpoint", status.endpoint],
      ["Version", status.version],
      ["Protocol revisions", (status.protocol_versions || []).join(", ")],
      ["Uptime", (status.uptime_seconds || 0) + " s"],
      ["State serial", status.state_serial],
      ["Catalogue", tools.length + " tools" + (cost !== null ? ", " + cost + " tokens" : "")],
    ];
    if ((status.collisions || []).length) rows.push(["Collisions", status.collisions.join("; ")]);
    for (const [k, v] of rows) facts.append(el("dt", {}, k), el("dd", {}, v === undefined ? "" : String(v)));

    const body = clear(document.getElementById("overview-services"));
    for (const s of status.services || []) {
      const tk = tokensOf(s) !== null ? tokensOf(s) : toolTokens(s.name);
      body.append(el("tr", { "data-testid": "service-row", class: s.state === "failed" ? "failed" : "" },
        el("th", { scope: "row" }, s.name, s.project ? el("div", { class: "muted" }, "project " + s.project) : null),
        el("td", {}, badge(s.state), " ", loginState(s), loginAction(s)),
        el("td", {}, String(s.tools)),
        el("td", {}, tk === null ? "—" : String(tk)),
        el("td", {}, String(s.restarts || 0)),
        el("td", { class: "error-text" }, s.error || "")));
    }
    if (!(status.services || []).length) body.append(el("tr", {}, el("td", { colspan: 6 }, "No services in the state.")));

    showConnect(status);

    const sess = clear(document.getElementById("overview-sessions"));
    for (const s of status.sessions || []) {
      sess.append(el("tr", {}, el("td", {}, s.id), el("td", {}, s.endpoint || ""), el("td", {}, s.root || "—"), el("td", {}, when(s.started))));
    }
    if (!(status.sessions || []).length) sess.append(el("tr", {}, el("td", { colspan: 4 }, "No MCP sessions right now.")));
    const sl = status.stateless_requests || {};
    const keys = Object.keys(sl);
    document.getElementById("overview-stateless").textContent = keys.length
      ? "Stateless (2026-07-28) requests: " + keys.map((k) => k + " " + sl[k]).join(", ")
      : "";
  };

  loaders.services = async function () {
    const [st, svcs, ts] = await Promise.all([api("/api/mcp/status"), api("/api/mcp/services"), api("/api/mcp/tools")]);
    status = st;
    tools = ts || [];
    const live = {};
    for (const s of st.services || []) live[s.name] = s;
    const list = clear(document.getElementById("services-list"));
    const names = new Set((svcs || []).map((s) => s.name));
    const all = (svcs || []).slice();
    for (const s of st.services || []) if (!names.has(s.name)) all.push({ name: s.name, transport: s.transport, enabled: true });
    for (const s of all) {
      const l = live[s.name] || { state: s.enabled ? "not offered" : "disabled", tools: 0 };
      const tk = tokensOf(l) !== null ? tokensOf(l) : toolTokens(s.name);
      const kv = (obj) => Object.keys(obj || {}).map((k) => el("div", {}, el("code", {}, k), " = ", el("code", {}, obj[k])));
      const dl = el("dl", { class: "facts" },
        el("dt", {}, "Transport"), el("dd", {}, s.transport || ""),
        el("dt", {}, "Scope"), el("dd", {}, s.project ? "project " + s.project : "global"),
        el("dt", {}, "Policy"), el("dd", {}, policyText(s.policy)),
        el("dt", {}, "Tools"), el("dd", {}, String(l.tools || 0) + (tk !== null ? " (" + tk + " tokens)" : "")),
        s.command ? [el("dt", {}, "Command"), el("dd", {}, el("code", {}, [s.command].concat(s.args || []).join(" ")))] : null,
        s.url ? [el("dt", {}, "URL"), el("dd", {}, el("code", {}, s.url))] : null,
        s.env ? [el("dt", {}, "Environment"), el("dd", {}, kv(s.env))] : null,
        s.headers ? [el("dt", {}, "Headers"), el("dd", {}, kv(s.headers))] : null,
        s.timeout ? [el("dt", {}, "Timeout"), el("dd", {}, s.timeout)] : null,
        l.pid ? [el("dt", {}, "PID"), el("dd", {}, String(l.pid))] : null,
        [el("dt", {}, "Restarts"), el("dd", {}, String(l.restarts || 0))],
        l.login ? [el("dt", {}, "Login"), el("dd", {}, loginState(l))] : null,
        l.error ? [el("dt", {}, "Last error"), el("dd", { class: "error-text" }, l.error)] : null,
        (l.hidden || []).length ? [el("dt", {}, "Hidden"), el("dd", {}, l.hidden.join("; "))] : null);
      const out = el("p", { class: "muted", "aria-live": "polite" });
      const btn = el("button", { type: "button", "data-testid": "service-restart" }, "Restart " + s.name);
      btn.addEventListener("click", async () => {
        btn.disabled = true;
        out.textContent = "Restarting…";
        try {
          const r = await api("/api/mcp/services/" + encodeURIComponent(s.name) + "/restart", { method: "POST", body: {} });
          out.textContent = "Restarted: " + r.state + (r.pid ? " (pid " + r.pid + ")" : "");
        } catch (e) {
          out.textContent = "Restart failed: " + e.message;
        }
        btn.disabled = false;
      });
      list.append(el("article", { class: "card", "data-testid": "service-card" },
        el("h3", {}, s.name, " ", badge(l.state)), dl,
        el("p", {}, btn, l.login === "login required" ? [" ", loginButton(s.name, out)] : null), out));
    }
    if (!all.length) list.append(el("p", {}, "No services in the state."));
  };

  function policyText(p) {
    if (!p) return "none";
    const parts = [];
    if (p.enabled === false) parts.push("disabled");
    if ((p.disabled_tools || []).length) parts.push("hides " + p.disabled_tools.join(", "));
    if ((p.enabled_tools || []).length) parts.push("offers only " + p.enabled_tools.join(", "));
    return parts.join("; ") || "none";
  }

  // ---- tools ------------------------------------------------------------------

  let selectedTool = "";

  loaders.tools = async function () {
    tools = (await api("/api/mcp/tools")) || [];
    await searchTools();
  };

  // found is what the hub's search answered for the search text, best
  // first; null when there is no text (every tool, by name).
  let found = null;
  let searches = 0;

  document.getElementById("tool-search").addEventListener("input", () => searchTools().catch(problem));

  // searchTools asks the hub's own search (search_tools' ranking), so
  // "bill a customer" finds send_invoice as a client would.
  async function searchTools() {
    const q = document.getElementById("tool-search").value.trim();
    const mine = ++searches;
    const answer = q ? ((await api("/api/mcp/tools?q=" + encodeURIComponent(q))) || []) : null;
    if (mine !== searches) return; // a newer search is on its way
    found = answer;
    renderTools();
  }

  function renderTools() {
    const list = clear(document.getElementById("tools-list"));
    let shown = 0;
    for (const t of found || tools) {
      shown++;
      const b = el("button", { type: "button", class: "row-button", "data-testid": "tool-row", "aria-pressed": t.name === selectedTool ? "true" : "false" },
        el("span", { class: "name" }, t.name),
        t.blocked ? badge("blocked") : null,
        typeof t.tokens === "number" ? el("span", { class: "muted" }, " " + t.tokens + " tokens") : null,
        el("span", { class: "desc" }, t.description || ""));
      b.addEventListener("click", () => { selectedTool = t.name; renderTools(); renderTool(t); });
      list.append(el("li", {}, b));
    }
    document.getElementById("tool-count").textContent = shown + " of " + tools.length;
  }

  // inputFor makes the form control of one schema property, holding the
  // schema's default when it has one.
  function inputFor(id, prop) {
    const input = controlFor(id, prop);
    if (prop.default !== undefined) {
      switch (input.dataset.kind) {
        case "boolean": input.checked = prop.default === true; break;
        case "enum": input.value = JSON.stringify(prop.default); break;
        case "json": input.value = JSON.stringify(prop.default); break;
        default: input.value = String(prop.default);
      }
    }
    return input;
  }

  function controlFor(id, prop) {
    const type = Array.isArray(prop.type) ? prop.type.find((x) => x !== "null") : prop.type;
    if (Array.isArray(prop.enum)) {
      const s = el("select", { id }, el("option", { value: "" }, "(none)"));
      for (const v of prop.enum) s.append(el("option", { value: JSON.stringify(v) }, String(v)));
      s.dataset.kind = "enum";
      return s;
    }
    if (type === "boolean") {
      const i = el("input", { id, type: "checkbox" });
      i.dataset.kind = "boolean";
      return i;
    }
    if (type === "number" || type === "integer") {
      const i = el("input", { id, type: "number", step: type === "integer" ? "1" : "any" });
      i.dataset.kind = type;
      return i;
    }
    if (type === "object" || type === "array") {
      const t = el("textarea", { id, rows: 3, placeholder: type === "array" ? "[ … ] as JSON" : "{ … } as JSON" });
      t.dataset.kind = "json";
      return t;
    }
    const i = el("input", { id, type: "text" });
    i.dataset.kind = "string";
    return i;
  }

  function valueOf(input) {
    switch (input.dataset.kind) {
      case "boolean": return input.checked;
      case "enum": return input.value === "" ? undefined : JSON.parse(input.value);
      case "number": case "integer": return input.value === "" ? undefined : Number(input.value);
      case "json":
        if (input.value.trim() === "") return undefined;
        try { return JSON.parse(input.value); } catch (e) { return input.value; }
      default: return input.value === "" ? undefined : input.value;
    }
  }

  function renderTool(t) {
    const box = clear(document.getElementById("tool-detail"));
    const schema = t.inputSchema || { type: "object" };
    const props = schema.properties || {};
    const required = new Set(schema.required || []);
    const args = el("textarea", { id: "tool-args-input", rows: 6, "data-testid": "tool-args", spellcheck: "false" }, "{}");
    const result = el("pre", { "data-testid": "tool-result", class: "result", "aria-live": "polite" });
    const fields = el("div", { class: "fields" });
    const inputs = {};
    let n = 0;
    for (const [name, prop] of Object.entries(props)) {
      const id = "arg-" + (n++);
      const input = inputFor(id, prop || {});
      inputs[name] = input;
      input.addEventListener("input", sync);
      input.addEventListener("change", sync);
      fields.append(el("div", { class: "field" },
        el("label", { for: id }, el("code", {}, name), required.has(name) ? " (required)" : "", prop && prop.type ? " — " + [].concat(prop.type).join("|") : ""),
        input,
        prop && prop.description ? el("div", { class: "muted" }, prop.description) : null));
    }
    // The form fills the JSON text; the JSON text is what is sent, so a
    // schema the form cannot express is still callable (raw JSON).
    function sync() {
      const out = {};
      for (const [name, input] of Object.entries(inputs)) {
        const v = valueOf(input);
        if (v !== undefined && !(input.dataset.kind === "boolean" && v === false && !required.has(name))) out[name] = v;
      }
      args.value = json(out);
    }
    const call = el("button", { type: "submit", "data-testid": "tool-call" }, "Call " + t.name);
    const form = el("form", { "data-testid": "tool-call-form", class: "call-form" },
      el("h3", {}, t.name),
      el("p", { class: "desc" }, t.description || ""),
      Object.keys(props).length ? fields : el("p", { class: "muted" }, "This tool takes no arguments."),
      el("label", { for: "tool-args-input" }, "Arguments (JSON, sent as is)"),
      args,
      el("p", {}, call),
      el("h4", {}, "Result"),
      result,
      el("details", {}, el("summary", {}, "Input schema"), el("pre", { class: "schema" }, json(schema))));
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      let parsed;
      try { parsed = args.value.trim() ? JSON.parse(args.value) : {}; } catch (e) {
        result.textContent = "The arguments are not valid JSON: " + e.message;
        result.className = "result error-text";
        return;
      }
      call.disabled = true;
      result.textContent = "Calling…";
      result.className = "result";
      try {
        const r = await api("/api/mcp/call", { method: "POST", body: { name: t.name, arguments: parsed } });
        result.textContent = resultText(r);
        if (r && r.isError) result.className = "result error-text";
      } catch (e) {
        result.textContent = "Call failed: " + e.message;
        result.className = "result error-text";
      }
      call.disabled = false;
    });
    box.append(form);
  }

  // resultText shows a CallToolResult: its text content first, then the
  // rest as JSON.
  function resultText(r) {
    if (!r) return "";
    const parts = [];
    for (const c of r.content || []) {
      if (c.type === "text") parts.push(c.text);
      else parts.push(json(c));
    }
    if (r.structuredContent !== undefined) parts.push("structuredContent: " + json(r.structuredContent));
    if (r.isError) parts.unshift("The tool reported an error:");
    return parts.join("\n");
  }

  // ---- live log -----------------------------------------------------------------

  const logRecords = [];
  let lastSeq = 0;
  let logRunning = false;
  const LOG_KEEP = 500;

  function startLog() {
    if (logRunning) return;
    logRunning = true;
    pollLog();
  }

  // pollLog asks for the records after the last one seen; the hub answers
  // as soon as there is one (or after a while with none), in every open tab.
  async function pollLog() {
    const live = document.getElementById("log-live");
    for (;;) {
      try {
        const recs = await api(lastSeq ? "/api/mcp/log?after=" + lastSeq : "/api/mcp/log");
        live.textContent = "live";
        if (recs && recs.length && recs[0].seq <= lastSeq) {
          // The hub restarted and counts from 1 again.
          logRecords.length = 0;
          clear(document.getElementById("log-list"));
        }
        for (const r of recs || []) addRecord(r);
      } catch (e) {
        live.textContent = "disconnected: " + e.message;
        if (e.status === 401) { logRunning = false; return; }
        await new Promise((res) => setTimeout(res, 2000));
      }
    }
  }

  function summary(r) {
    const m = r.message || {};
    const p = m.params || {};
    if (r.direction === "note") return { title: r.note || "", detail: "" };
    if (r.direction === "blocked") return { title: "blocked " + (m.tool || ""), detail: m.service ? "service " + m.service : "" };
    if (m.method) {
      let title = m.method;
      if (p.name) title += " " + p.name;
      else if (p.uri) title += " " + p.uri;
      const detail = p.arguments !== undefined ? json(p.arguments) : "";
      return { title, detail };
    }
    if (m.result !== undefined) return { title: "result" + (m.id !== undefined ? " of " + m.id : ""), detail: json(m.result) };
    if (m.error !== undefined) return { title: "error" + (m.id !== undefined ? " of " + m.id : ""), detail: typeof m.error === "string" ? m.error : json(m.error) };
    return { title: "", detail: json(m) };
  }

  function serviceOf(r) {
    const m = r.message || {};
    const name = (m.params && m.params.name) || m.tool || "";
    const i = String(name).indexOf("__");
    return m.service || (i > 0 ? name.slice(0, i) : "");
  }

  function addRecord(r) {
    lastSeq = Math.max(lastSeq, r.seq);
    const s = summary(r);
    r._service = serviceOf(r);
    const li = el("li", { "data-testid": "log-entry", "data-seq": r.seq, "data-direction": r.direction, class: "entry " + r.direction },
      el("div", { class: "head" },
        el("span", { class: "seq" }, "#" + r.seq),
        badge(r.direction),
        el("time", { datetime: r.time }, when(r.time)),
        r.session ? el("span", { class: "muted" }, "session " + r.session) : null,
        r.message && r.message.via ? el("span", { class: "muted" }, "via " + r.message.via) : null,
        el("strong", {}, s.title)),
      s.detail ? el("pre", {}, s.detail) : null);
    r._node = li;
    logRecords.push(r);
    addOption("log-session", r.session);
    addOption("log-service", r._service);
    applyFilter(r);
    const list = document.getElementById("log-list");
    list.prepend(li);
    while (logRecords.length > LOG_KEEP) {
      const old = logRecords.shift();
      old._node.remove();
    }
  }

  function addOption(id, v) {
    if (!v) return;
    const s = document.getElementById(id);
    for (const o of s.options) if (o.value === v) return;
    s.append(el("option", { value: v }, v));
  }

  function applyFilter(r) {
    const session = document.getElementById("log-session").value;
    const service = document.getElementById("log-service").value;
    const kind = document.getElementById("log-kind").value;
    r._node.hidden = (session && r.session !== session) || (service && r._service !== service) || (kind && r.direction !== kind);
  }

  for (const id of ["log-session", "log-service", "log-kind"]) {
    document.getElementById(id).addEventListener("change", () => logRecords.forEach(applyFilter));
  }

  // ---- skills -----------------------------------------------------------------------

  let skills = [];

  loaders.skills = async function () {
    skills = (await api("/api/skills")) || [];
    renderSkills();
  };

  document.getElementById("skill-filter").addEventListener("input", renderSkills);

  function renderSkills() {
    const q = document.getElementById("skill-filter").value.trim().toLowerCase();
    const list = clear(document.getElementById("skills-list"));
    for (const s of skills) {
      if (q && !(s.name + " " + s.tags.join(" ")).toLowerCase().includes(q)) continue;
      list.append(skillCard(s));
    }
    if (!list.firstChild) list.append(el("p", {}, skills.length ? "No skill matches." : "No central skills yet: chronicle apply imports them."));
  }

  function skillCard(s) {
    const id = "skill-" + s.name;
    const links = el("ul", { class: "links", "aria-label": "Link status of " + s.name });
    for (const tool of Object.keys(s.links).sort()) {
      links.append(el("li", {}, tool + ": ", badge(s.links[tool])));
    }
    const projects = (s.projects || []).length
      ? el("ul", { class: "links", "aria-label": "Project folders of " + s.name },
        s.projects.map((p) => el("li", {}, p.tool + " in " + p.project + ": ", badge(p.status))))
      : null;
    const o = s.origin || {};
    const origin = o.repo ? o.repo + (o.path ? " /" + o.path : "") + (o.ref ? " @ " + o.ref : "") + (o.sha ? " (" + o.sha.slice(0, 12) + ")" : "")
      : o.source || "unknown (not in the state)";

    const tags = el("input", { id: id + "-tags", type: "text", value: s.tags.join(", "), "data-testid": "skill-tags" });
    const rating = el("select", { id: id + "-rating", "data-testid": "skill-rating" });
    for (let i = 0; i <= 5; i++) {
      const opt = el("option", { value: i }, i === 0 ? "unrated" : "★".repeat(i) + " (" + i + ")");
      if (i === s.rating) opt.selected = true;
      rating.append(opt);
    }
    const saved = el("span", { class: "muted", "aria-live": "polite" });
    const save = el("button", { type: "submit", "data-testid": "skill-save" }, "Save tags and rating");
    const metaForm = el("form", { class: "meta" },
      el("label", { for: id + "-tags" }, "Tags (comma separated)"), tags,
      el("label", { for: id + "-rating" }, "Rating"), rating,
      save, saved);
    metaForm.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const list = tags.value.split(/[,\s]+/).map((x) => x.trim()).filter(Boolean);
      save.disabled = true;
      try {
        const updated = await api("/api/skills/" + encodeURIComponent(s.name) + "/meta", { method: "PUT", body: { tags: list, rating: Number(rating.value) } });
        replaceSkill(updated, "Saved.");
      } catch (e) {
        saved.textContent = "Not saved: " + e.message;
        save.disabled = false;
      }
    });

    const snaps = el("div", { class: "snapshots" });
    const showSnaps = el("button", { type: "button", "data-testid": "skill-snapshots", "aria-expanded": "false" }, "Snapshots of " + s.name);
    showSnaps.addEventListener("click", async () => {
      if (showSnaps.getAttribute("aria-expanded") === "true") {
        clear(snaps);
        showSnaps.setAttribute("aria-expanded", "false");
        return;
      }
      showSnaps.setAttribute("aria-expanded", "true");
      await loadSnapshots(s, snaps);
    });

    const card = el("article", { class: "card", "data-testid": "skill-row", "data-skill": s.name, "data-rating": s.rating },
      el("h3", {}, s.name, " ", el("span", { class: "stars", "aria-label": s.rating ? s.rating + " of 5 stars" : "unrated" }, s.rating ? "★".repeat(s.rating) + "☆".repeat(5 - s.rating) : "unrated")),
      s.description ? el("p", { class: "desc" }, s.description) : null,
      el("p", { class: "tags" }, s.tags.length ? s.tags.map((t) => badge(t, "tag")) : el("span", { class: "muted" }, "no tags")),
      el("dl", { class: "facts" }, el("dt", {}, "Origin"), el("dd", {}, origin)),
      el("h4", {}, "Links"), links,
      projects ? [el("h4", {}, "Project folders"), projects] : null,
      metaForm,
      el("p", {}, showSnaps),
      snaps);
    card._saved = saved;
    return card;
  }

  function replaceSkill(updated, note) {
    skills = skills.map((x) => (x.name === updated.name ? updated : x));
    const old = document.querySelector('[data-testid="skill-row"][data-skill="' + CSS.escape(updated.name) + '"]');
    const card = skillCard(updated);
    if (old) old.replaceWith(card); else renderSkills();
    if (note) card._saved.textContent = note;
    return card;
  }

  async function loadSnapshots(s, box) {
    clear(box).append(el("p", { class: "muted" }, "Loading snapshots…"));
    const list = await api("/api/skills/" + encodeURIComponent(s.name) + "/snapshots");
    clear(box);
    if (!list.length) { box.append(el("p", {}, "No snapshots.")); return; }
    const table = el("table", { class: "grid" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Id"), el("th", { scope: "col" }, "Kind"), el("th", { scope: "col" }, "Taken"), el("th", { scope: "col" }, "Note"), el("th", { scope: "col" }, "Restore"))));
    const tbody = el("tbody");
    for (const snap of list) {
      const cell = el("td");
      const restore = el("button", { type: "button", "data-testid": "snapshot-restore", "data-id": snap.id }, "Restore " + snap.id);
      restore.addEventListener("click", () => confirmRestore(s, snap, cell, restore, box));
      cell.append(restore);
      tbody.append(el("tr", { "data-testid": "snapshot-row", "data-id": snap.id },
        el("td", {}, snap.id), el("td", {}, badge(snap.kind)), el("td", {}, when(snap.time)), el("td", {}, snap.note || ""), cell));
    }
    table.append(tbody);
    box.append(table);
  }

  // confirmRestore asks first, in the page: a restore replaces the central
  // copy (the current content is snapshotted first).
  function confirmRestore(s, snap, cell, restore, box) {
    restore.hidden = true;
    const yes = el("button", { type: "button", "data-testid": "snapshot-confirm", class: "danger" }, "Yes, restore " + s.name + " to snapshot " + snap.id);
    const no = el("button", { type: "button", "data-testid": "snapshot-cancel" }, "Cancel");
    const ask = el("div", { role: "group", "aria-label": "Confirm the restore" },
      el("p", {}, "Replace the central copy of " + s.name + " with snapshot " + snap.id + "? Its current content is snapshotted first."), yes, " ", no);
    cell.append(ask);
    yes.focus();
    no.addEventListener("click", () => { ask.remove(); restore.hidden = false; restore.focus(); });
    yes.addEventListener("click", async () => {
      yes.disabled = no.disabled = true;
      try {
        const updated = await api("/api/skills/" + encodeURIComponent(s.name) + "/restore", { method: "POST", body: { id: snap.id } });
        const card = replaceSkill(updated, "Restored from snapshot " + snap.id + ".");
        const again = card.querySelector('[data-testid="skill-snapshots"]');
        again.setAttribute("aria-expanded", "true");
        await loadSnapshots(updated, card.querySelector(".snapshots"));
      } catch (e) {
        ask.append(el("p", { class: "error-text", role: "alert" }, "Not restored: " + e.message));
        yes.disabled = no.disabled = false;
      }
    });
  }

  // ---- takeover review --------------------------------------------------------------

  const SYMBOLS = { create: "+", update: "~", delete: "-", replace: "-/+", conflict: "!", read: "<=" };

  loaders.review = () => loadReview(false);
  document.getElementById("review-refresh").addEventListener("click", () => loadReview(true).catch(problem));

  async function loadReview(wait) {
    const body = document.getElementById("review-body");
    if (!body.firstChild) body.append(el("p", { class: "muted" }, "Scanning the tools and planning…"));
    const r = await api("/api/mcp/review" + (wait ? "?wait=1" : ""));
    clear(body);
    document.getElementById("review-when").textContent = "Computed " + when(r.computed_at) + " for state serial " + r.state_serial + (r.offline ? ", offline" : "");
    body.append(el("dl", { class: "facts" }, el("dt", {}, "Configuration"), el("dd", {}, r.config_dir || "(none recorded)")));
    if (r.config_dir_missing) {
      body.append(el("p", { class: "banner error", "data-testid": "review-missing" },
        "The configuration folder " + (r.config_dir || "") + " the state was applied from is gone: the scan below is against no configuration, and there is no plan."));
    }
    for (const e of r.errors || []) body.append(el("p", { class: "error-text" }, e));
    if (r.plan) {
      const sm = r.summary || {};
      body.append(el("h3", {}, "Plan"),
        el("p", { "data-testid": "review-summary" }, "Plan: " + sm.add + " to add, " + sm.change + " to change, " + sm.remove + " to remove, " + sm.conflict + " conflicts."));
      const changes = (r.plan.changes || []).filter((c) => c.action !== "no-op");
      if (changes.length) {
        body.append(el("table", { class: "grid" },
          el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Action"), el("th", { scope: "col" }, "Address"), el("th", { scope: "col" }, "Why"), el("th", { scope: "col" }, "Path"))),
          el("tbody", {}, changes.map((c) => el("tr", { class: "action-" + c.action },
            el("td", {}, el("code", {}, SYMBOLS[c.action] || c.action), " " + c.action),
            el("td", {}, el("code", {}, c.address)),
            el("td", {}, c.reason || "", c.diff ? el("details", {}, el("summary", {}, "diff"), el("pre", {}, c.diff)) : null),
            el("td", {}, c.path || ""))))));
      } else {
        body.append(el("p", {}, "No changes. This machine matches the configuration."));
      }
      for (const d of r.plan.diagnostics || []) body.append(el("p", { class: d.severity === "error" ? "error-text" : "muted" }, d.severity + ": " + d.summary + (d.detail ? " — " + d.detail : "")));
      if (r.command) {
        body.append(el("p", {}, "To apply it, run: ", el("code", { "data-testid": "review-command" }, r.command)));
      }
      if ((r.plan.unmanaged || []).length) {
        body.append(el("h3", {}, "Not managed by chronicle"),
          el("ul", {}, r.plan.unmanaged.map((u) => el("li", {}, u.tool + " " + u.scope + " " + u.kind + " " + u.name + ": ", badge(u.status)))));
      }
    }
    const sc = r.scan || { services: [], skills: [], errors: [] };
    body.append(el("h3", {}, "Services found"));
    body.append(sc.services.length ? el("table", { class: "grid" },
      el("thead", {}, el("tr", {}, ["Tool", "Scope", "Name", "Transport", "Status", "File"].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, sc.services.map((s) => el("tr", { "data-testid": "review-service" },
        el("td", {}, s.tool), el("td", {}, s.scope + (s.project ? " " + s.project : "")), el("td", {}, s.name), el("td", {}, s.transport),
        el("td", {}, badge(s.status), s.reason ? " " + s.reason : ""), el("td", {}, s.file))))) : el("p", {}, "No MCP servers found in any tool's configuration."));
    body.append(el("h3", {}, "Skills found"));
    body.append(sc.skills.length ? el("table", { class: "grid" },
      el("thead", {}, el("tr", {}, ["Tool", "Folder", "Name", "Status"].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, sc.skills.map((s) => el("tr", { "data-testid": "review-skill" },
        el("td", {}, s.tool), el("td", {}, s.dir), el("td", {}, s.name), el("td", {}, badge(s.status), s.reason ? " " + s.reason : ""))))) : el("p", {}, "No skills found in any tool's folder."));
    for (const e of sc.errors || []) body.append(el("p", { class: "error-text" }, e.tool + ": " + e.file + ": " + e.error));
  }

  // ---- start --------------------------------------------------------------------------

  function refresh() { show(location.hash.slice(1) || "overview"); }

  document.getElementById("footer").textContent = "chronicle console — data from this hub only";
  refresh();
  startLog();
})();
