// The activity page: the feed, refs, live view with takeover, the cookie picker and the chat.
"use strict";

const $ = (id) => document.getElementById(id);
const session = new URLSearchParams(location.search).get("session") || "default";
$("session").textContent = session;

function el(tag, props, ...children) {
  const node = Object.assign(document.createElement(tag), props || {});
  for (const child of children) node.append(child);
  return node;
}

// Text whose `quoted` parts are commands, shown as code.
function withCode(text) {
  return text.split("`").map((part, i) => (i % 2 ? el("code", {textContent: part}) : part));
}

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  const response = await fetch(path, options);
  return response.json();
}

// panes

const panes = {feed: null, refs: loadRefs, live: watch, cookies: loadBrowsers, chat: null};
for (const button of document.querySelectorAll("nav button")) {
  button.addEventListener("click", () => show(button.dataset.pane));
}

function show(name) {
  for (const button of document.querySelectorAll("nav button")) {
    button.classList.toggle("on", button.dataset.pane === name);
  }
  // The refs sit beside the live view, so that hovering one outlines its element there.
  const shown = name === "refs" ? ["refs", "live"] : [name];
  for (const pane of document.querySelectorAll(".pane")) pane.hidden = !shown.includes(pane.id);
  if (!shown.includes("live")) unwatch();
  for (const each of shown) if (panes[each]) panes[each]();
}

// feed

function quoteWord(word) {
  return /^[\w@.:/=,#\[\]-]+$/.test(word) ? word : JSON.stringify(word);
}

function row(event) {
  const words = event.args.map(quoteWord);
  for (const [flag, value] of Object.entries(event.flags)) {
    words.push(value === true ? flag : `${flag} ${quoteWord(String(value))}`);
  }
  const outcome = event.ok ? "ok" : `exit ${event.exit_code}: ${event.error}`;
  const cells = [
    new Date(event.time * 1000).toLocaleTimeString(), event.client, event.session, event.tab || "",
    event.command, words.join(" "), event.duration_ms];
  const tr = el("tr", {className: (event.ok ? "ok" : "fail") + (event.step_of ? " step" : "")});
  tr.dataset.id = event.id;
  const names = ["time", "client", "session", "tab", "command", "args", "ms"];
  cells.forEach((text, i) => tr.append(el("td", {className: names[i], textContent: String(text)})));
  const last = el("td", {className: "outcome", textContent: outcome});
  if (event.hint) last.append(el("div", {className: "hint", textContent: event.hint}));
  tr.append(last);
  return tr;
}

function connection(text, state) {
  $("conn").textContent = text;
  $("conn").className = state;
}

function follow() {
  const source = new EventSource("/api/events");
  source.addEventListener("open", () => connection("live", "on"));
  source.addEventListener("error", async () => {
    connection("reconnecting…", "off");
    if (await daemonGone()) {
      source.close();
      connection("daemon stopped", "off");
      $("gone").hidden = false;
      unwatch();
    }
  });
  source.addEventListener("command", (message) => {
    const event = JSON.parse(message.data);
    $("rows").prepend(row(event));
    while ($("rows").children.length > 1000) $("rows").lastChild.remove();
    if (event.session === session) refsMayHaveChanged();
    sessionsMayHaveChanged();  // views.js
  });
}

// The stream drops when the daemon stops; a new daemon (after `browse restart`) has a
// new port and does not know this page's cookie, so retrying can never succeed.
async function daemonGone() {
  try {
    const response = await fetch(`/api/refs?session=${encodeURIComponent(session)}`);
    return response.status === 401;
  } catch (e) {
    return true;  // nothing listens on this port any more
  }
}

// refs

let refs = [];
async function loadRefs() {
  const answer = await api(`/api/refs?session=${encodeURIComponent(session)}`);
  refs = answer.refs || [];
  $("tabs").textContent = (answer.tabs || []).map((t) => `${t.current ? "*" : ""}tab ${t.number}: ${t.url}`).join("  ");
  drawRefs();
}

// The agent's commands move the page on: the refs pane follows while it is open.
let refsTimer = null;
function refsMayHaveChanged() {
  if ($("refs").hidden) return;
  clearTimeout(refsTimer);
  refsTimer = setTimeout(loadRefs, 150);
}

function drawRefs() {
  const wanted = $("refsearch").value.trim().toLowerCase();
  const list = $("reflist");
  outline(null);  // the hovered item is about to go: its mouseleave will never come
  list.replaceChildren();
  for (const ref of refs) {
    const text = `${ref.ref} ${ref.role} "${ref.name}" ${ref.states.map((s) => `[${s}]`).join(" ")}`;
    if (wanted && !text.toLowerCase().includes(wanted)) continue;
    const item = el("li", {textContent: text});
    item.addEventListener("mouseenter", () => outline(ref.box));
    item.addEventListener("mouseleave", () => outline(null));
    list.append(item);
  }
}
$("refsearch").addEventListener("input", drawRefs);
$("reflist").addEventListener("mouseleave", () => outline(null));
$("refreload").addEventListener("click", loadRefs);

// live view and takeover

let screenSource = null;
let frameSize = null;
function watch() {
  if (screenSource) return;
  screenSource = new EventSource(`/api/screen?session=${encodeURIComponent(session)}`);
  screenSource.addEventListener("frame", (message) => {
    const frame = JSON.parse(message.data);
    $("screen").src = `data:image/jpeg;base64,${frame.data}`;
    frameSize = [frame.width, frame.height];
    showControl(frame.control);
  });
  screenSource.addEventListener("idle", (message) => showControl(JSON.parse(message.data).control));
  if (refs.length === 0) loadRefs();
}

function unwatch() {
  if (screenSource) screenSource.close();
  screenSource = null;
}

function showControl(control) {
  $("takeover").checked = control;
  $("screen").classList.toggle("control", control);
  $("control").textContent = control
    ? "You have the browser: the agent's commands fail until you let go (or it runs `browse resume`)."
    : "The agent has the browser.";
}

function outline(box) {
  const shape = $("outline");
  if (!box || !frameSize || $("live").hidden) { shape.hidden = true; return; }
  const scale = $("screen").clientWidth / frameSize[0];
  Object.assign(shape.style, {left: `${box[0] * scale}px`, top: `${box[1] * scale}px`,
    width: `${box[2] * scale}px`, height: `${box[3] * scale}px`});
  shape.hidden = false;
}

$("takeover").addEventListener("change", async () => {
  const answer = await api("/api/takeover", {on: $("takeover").checked, session});
  showControl(answer.control);
  if (answer.control) $("screen").focus();
});

function place(event) {
  const box = $("screen").getBoundingClientRect();
  return {x: (event.clientX - box.left) / box.width, y: (event.clientY - box.top) / box.height};
}

// One input at a time, in the order the person gave them: a key typed as a click lands must not
// reach the page before the click (it would go to the field the click was leaving).
let inputs = Promise.resolve();
function send(input) {
  if (!$("takeover").checked) return;
  inputs = inputs.then(() => api("/api/input", {...input, session})).catch(() => {});
}

$("screen").addEventListener("click", (event) => { $("screen").focus(); send({kind: "click", ...place(event)}); });
$("screen").addEventListener("wheel", (event) => {
  if (!$("takeover").checked) return;
  event.preventDefault();
  send({kind: "wheel", ...place(event), dx: event.deltaX, dy: event.deltaY});
}, {passive: false});
$("screen").addEventListener("keydown", (event) => {
  if (!$("takeover").checked || event.metaKey || event.ctrlKey) return;
  event.preventDefault();
  send({kind: "key", key: event.key});
});

// cookie picker

let browsers = [];
async function loadBrowsers() {
  const answer = await api("/api/cookies/browsers");
  browsers = answer.browsers || [];
  $("browser").replaceChildren(...browsers.map((b) => el("option", {value: b.browser, textContent: b.title})));
  const none = browsers.length === 0;
  for (const id of ["browser", "profile", "listdomains", "domainsearch"]) $(id).disabled = none;
  // With no profile to choose, the choosers are left out, not shown empty: the note says what to do.
  for (const id of ["browser", "profile", "domainsearch", "import"]) $(id).hidden = none;
  $("cookienote").replaceChildren(...withCode(none
    ? "No browser profiles with cookies were found on this computer. To sign the agent in, run "
      + "`browse handoff \"sign in\"`, or import a JSON export with `browse cookie-import FILE`."
    : "Choose a browser and profile, then List domains: you see domain names and counts, never cookie values."));
  fillProfiles();
}

function fillProfiles() {
  const chosen = browsers.find((b) => b.browser === $("browser").value);
  $("profile").replaceChildren(...(chosen ? chosen.profiles : []).map((p) => el("option", {value: p, textContent: p})));
}
$("browser").addEventListener("change", fillProfiles);

$("listdomains").addEventListener("click", async () => {
  const query = `browser=${encodeURIComponent($("browser").value)}&profile=${encodeURIComponent($("profile").value)}`;
  const answer = await api(`/api/cookies/domains?${query}`);
  $("domains").replaceChildren();
  $("imported").textContent = answer.ok ? "" : `${answer.error}\n${answer.hint || ""}`;
  if (answer.ok && !(answer.domains || []).length) {
    $("domains").append(el("li", {className: "empty", textContent: "No cookies in this profile."}));
  }
  for (const found of answer.domains || []) {
    const box = el("input", {type: "checkbox", value: found.domain});
    box.addEventListener("change", () => { $("import").disabled = !chosenDomains().length; });
    $("domains").append(el("li", {}, el("label", {}, box, ` ${found.domain} (${found.count})`)));
  }
});

$("domainsearch").addEventListener("input", () => {
  const wanted = $("domainsearch").value.trim().toLowerCase();
  for (const item of $("domains").children) item.hidden = !item.textContent.toLowerCase().includes(wanted);
});

function chosenDomains() {
  return [...$("domains").querySelectorAll("input:checked")].map((box) => box.value);
}

$("import").addEventListener("click", async () => {
  const answer = await api("/api/cookies/import", {
    browser: $("browser").value, profile: $("profile").value, domains: chosenDomains(), session});
  $("imported").textContent = answer.output || answer.error;
});

// chat

async function chatConfig() {
  const answer = await api("/api/chat/config");
  $("send").disabled = $("message").disabled = !answer.on;
  $("chatnote").replaceChildren(...withCode(answer.on
    ? `Each message runs ${answer.program} (BROWSE_AGENT_CMD) on this page, driving session ${session}; `
      + `it is stopped after ${Math.round(answer.limit_s / 60)} minutes or on Cancel.`
    : "Chat is off: it runs a local agent program, and none is set. Start the daemon with one, e.g. "
      + "`BROWSE_AGENT_CMD='claude -p' browse restart`, then open the new link from `browse dashboard`."));
}
panes.chat = chatConfig;

$("send").addEventListener("click", async () => {
  const message = $("message").value.trim();
  if (!message) return;
  $("send").disabled = true;
  $("cancel").disabled = false;
  $("reply").textContent = "";
  try {
    const response = await fetch("/api/chat", {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({message, session})});
    if (!response.ok) {
      const answer = await response.json();
      $("reply").textContent = `${answer.error}\n${answer.hint || ""}`;
      return;
    }
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const {done, value} = await reader.read();
      if (done) break;
      $("reply").textContent += decoder.decode(value, {stream: true});
    }
  } finally {
    $("send").disabled = false;
    $("cancel").disabled = true;
  }
});

$("cancel").addEventListener("click", () => api("/api/chat/cancel", {}));

follow();
