// The side panel: the session's activity page in a frame, and the @ref overlay's switch.
//
// The frame signs in as `browse dashboard`'s link does, with a one-time code;
// the panel gets the code from the daemon with the key the daemon gave the
// extension (chrome.storage.session, never a file or a URL), and its session's
// name from this instance's worker.

const WAIT_MS = 1000;
const frame = document.getElementById("activity");
const state = document.getElementById("state");
const overlay = document.getElementById("overlay");

async function open() {
  const {port, key} = await chrome.storage.session.get(["port", "key"]);
  const {session} = await chrome.runtime.sendMessage("panel?");
  if (!port || !session) {
    return later("waiting for refbrowse…");  // opened before the daemon named this session
  }
  try {
    const response = await fetch(`http://127.0.0.1:${port}/ext/code`, {
      method: "POST",
      headers: {"X-Refbrowse-Key": key},
    });
    if (!response.ok) return later(`refbrowse refused the panel (${response.status})`);
    const {code} = await response.json();
    const name = encodeURIComponent(session);
    frame.src = `http://127.0.0.1:${port}/auth?code=${encodeURIComponent(code)}&session=${name}`;
    state.textContent = "";
  } catch {
    later("the daemon does not answer");
  }
}

function later(why) {
  state.textContent = why;
  setTimeout(open, WAIT_MS);
}

overlay.addEventListener("change", () => chrome.runtime.sendMessage({overlay: overlay.checked}));
chrome.runtime.sendMessage("panel?").then((found) => { overlay.checked = found.overlay; });
open();
