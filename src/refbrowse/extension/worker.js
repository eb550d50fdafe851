// The extension's service worker: the toolbar badge and the @ref overlay's data.
//
// The daemon writes {port, key, session} into chrome.storage.session (memory
// only) of this session's instance of the extension ("incognito": "split" gives
// each session's browser context an instance of its own). Every BEAT_MS the
// worker asks the activity listener whether the daemon answers, and colours
// the badge; while the overlay is on it also fetches the session's refs and
// hands them to the tabs that show the snapshot's page.

const BEAT_MS = 1000;
const ANSWER_MS = 3000;
const GREEN = "#1a7f37";
const RED = "#cf222e";
const GREY = "#8c959f";

chrome.sidePanel.setPanelBehavior({openPanelOnActionClick: true}).catch(() => {});
chrome.action.setBadgeBackgroundColor({color: GREY});
chrome.action.setBadgeText({text: "…"});

let latest = {url: "", refs: []};
let sent = "";

async function ask(path) {
  const {port, key} = await chrome.storage.session.get(["port", "key"]);
  if (!port) return null;
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    headers: {"X-Refbrowse-Key": key},
    signal: AbortSignal.timeout(ANSWER_MS),
  });
  return response.ok ? response.json() : null;
}

async function badge(state) {
  const looks = {up: [GREEN, "on"], down: [RED, "off"], unknown: [GREY, "…"]}[state];
  await chrome.action.setBadgeBackgroundColor({color: looks[0]});
  await chrome.action.setBadgeText({text: looks[1]});
  await chrome.action.setTitle({title: `refbrowse: the daemon ${state === "up" ? "answers" : "does not answer"}`});
}

async function beat() {
  const {port, session, overlay} = await chrome.storage.session.get(["port", "session", "overlay"]);
  if (!port) return badge("unknown");
  let health = null;
  try {
    health = await ask("/ext/health");
  } catch {
    health = null;
  }
  await badge(health && health.ok ? "up" : "down");
  if (health && health.ok && overlay) {
    const found = await ask(`/ext/refs?session=${encodeURIComponent(session || "default")}`).catch(() => null);
    if (found) latest = {url: found.url, refs: found.refs};
  }
  await share(overlay ? latest : {url: "", refs: []});
}

// Tabs get the refs when they change; a tab that loads asks for them itself.
async function share(state) {
  const text = JSON.stringify(state);
  if (text === sent) return;
  sent = text;
  for (const tab of await chrome.tabs.query({})) {
    chrome.tabs.sendMessage(tab.id, {refs: state}).catch(() => {});
  }
}

chrome.runtime.onMessage.addListener((message, sender, reply) => {
  if (message === "refs?") {
    chrome.storage.session.get("overlay").then(({overlay}) => reply(overlay ? latest : {url: "", refs: []}));
    return true;
  }
  return false;
});

chrome.storage.session.onChanged.addListener(() => beat());

// A timer keeps the beat while the worker runs; the alarm starts the worker again if it was stopped.
async function loop() {
  await beat().catch(() => {});
  setTimeout(loop, BEAT_MS);
}
chrome.alarms.create("beat", {periodInMinutes: 0.5});
chrome.alarms.onAlarm.addListener(() => beat());
loop();
