// The activity page's sessions list, address bar and Console, Network and Storage views.
// Loaded after app.js, whose $, el, api, session, panes and show it uses.
"use strict";

async function loadSessions() {
  const answer = await api("/api/sessions");
  const list = (answer.sessions || []).map((each) => {
    const current = each.tabs.find((t) => t.current) || each.tabs[0];
    const link = el("a", {href: `?session=${encodeURIComponent(each.name)}`,
      className: each.name === session ? "on" : ""},
    `${each.name} (${each.tabs.length} tab${each.tabs.length === 1 ? "" : "s"})`,
    el("span", {className: "url", textContent: current ? current.url : "no tab yet"}));
    if (each.name === session && current && document.activeElement !== $("address")) $("address").value = current.url;
    return el("li", {}, link);
  });
  if (!list.some((item) => item.firstChild.classList.contains("on"))) {
    list.unshift(el("li", {}, el("a", {href: "#", className: "on"}, `${session} (not started)`)));
  }
  $("sessionlist").replaceChildren(...list);
}

// The agent's commands open tabs and move pages: the list follows them.
let sessionsTimer = null;
function sessionsMayHaveChanged() {
  clearTimeout(sessionsTimer);
  sessionsTimer = setTimeout(loadSessions, 200);
}

async function navigate(action) {
  const answer = await api("/api/navigate", {action, url: $("address").value, session});
  $("navnote").hidden = answer.ok;
  $("navnote").textContent = answer.ok ? "" : `${answer.error}${answer.hint ? ` (${answer.hint})` : ""}`;
  loadSessions();
}
$("urlbar").addEventListener("submit", (event) => { event.preventDefault(); navigate("goto"); });
$("navback").addEventListener("click", () => navigate("back"));
$("navforward").addEventListener("click", () => navigate("forward"));
$("navreload").addEventListener("click", () => navigate("reload"));

async function loadView(name) {
  const out = document.querySelector(`#${name} pre`);
  const answer = await api(`/api/view/${name}?session=${encodeURIComponent(session)}`);
  out.textContent = answer.ok ? (answer.output || "(nothing yet)") : `${answer.error}\n${answer.hint || ""}`;
}
for (const name of ["console", "network", "storage"]) {
  panes[name] = () => loadView(name);
  document.querySelector(`#${name} .refresh`).addEventListener("click", () => loadView(name));
}

loadSessions();
