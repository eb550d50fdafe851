// The extension's service worker: the toolbar badge and the @ref overlay's data.
//
// "incognito": "split" gives each session's browser context an instance of its
// own, but chrome.storage.session is one for all of them. So the daemon writes
// what all share ({port, key}) there, in memory only, and names each instance's
// session in that worker itself (`self.refbrowseSession`), again when a worker
// starts anew. Every BEAT_MS the worker asks the activity listener whether the
// daemon answers, and colours the badge; while the overlay is on it also
// fetches the session's refs and hands them to the tabs that show the
// snapshot's page. The overlay's switch is per instance too.

const BEAT_MS = 1000;
const ANSWER_MS = 3000;
const GREEN = "#1a7f37";
const RED = "#cf222e";
const GREY = "#8c959f";

chrome.sidePanel.setPanelBehavior({openPanelOnActionClick: true}).catch(() => {});
chrome.action.setBadgeBackgroundColor({color: GREY});
chrome.action.setBadgeText({text: "…"});

self.refbrowseSession = self.refbrowseSession || "";
let overlay = false;
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

const LOOKS = {
  up: [GREEN, "on", "the daemon answers"],
  down: [RED, "off", "the daemon does not answer"],
  unknown: [GREY, "…", "waiting for the daemon to name this session"],
};

async function badge(state) {
  const [color, text, title] = LOOKS[state];
  await chrome.action.setBadgeBackgroundColor({color});
  await chrome.action.setBadgeText({text});
  await chrome.action.setTitle({title: `refbrowse: ${title}`});
}

async function beat() {
  const {port} = await chrome.storage.session.get("port");
  const session = self.refbrowseSession;
  if (!port || !session) return badge("unknown");
  let health = null;
  try {
    health = await ask("/ext/health");
  } catch {
    health = null;
  }
  await badge(health && health.ok ? "up" : "down");
  if (health && health.ok && overlay) {
    const found = await ask(`/ext/refs?session=${encodeURIComponent(session)}`).catch(() => null);
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

// From this instance's content scripts and panel.
chrome.runtime.onMessage.addListener((message, sender, reply) => {
  if (message === "refs?") {
    reply(overlay ? latest : {url: "", refs: []});
  } else if (message === "panel?") {
    reply({session: self.refbrowseSession, overlay});
  } else if (message && typeof message.overlay === "boolean") {
    overlay = message.overlay;
    beat().then(() => reply({overlay}));
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
