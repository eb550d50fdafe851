// The side panel: the session's activity page in a frame, and the @ref overlay's switch.
//
// The frame signs in as `browse dashboard`'s link does, with a one-time code;
// the panel gets the code from the daemon with the key the daemon gave this
// instance of the extension (chrome.storage.session, never a file or a URL).

const frame = document.getElementById("activity");
const state = document.getElementById("state");
const overlay = document.getElementById("overlay");

async function open() {
  const {port, key, session} = await chrome.storage.session.get(["port", "key", "session"]);
  if (!port) {
    state.textContent = "waiting for refbrowse…";
    return false;
  }
  try {
    const response = await fetch(`http://127.0.0.1:${port}/ext/code`, {
      method: "POST",
      headers: {"X-Refbrowse-Key": key},
    });
    const {code} = await response.json();
    const name = encodeURIComponent(session || "default");
    frame.src = `http://127.0.0.1:${port}/auth?code=${encodeURIComponent(code)}&session=${name}`;
    state.textContent = "";
    return true;
  } catch {
    state.textContent = "the daemon does not answer";
    return false;
  }
}

overlay.addEventListener("change", () => chrome.storage.session.set({overlay: overlay.checked}));
chrome.storage.session.get("overlay").then(({overlay: on}) => { overlay.checked = Boolean(on); });
chrome.storage.session.onChanged.addListener((changes) => {
  if (changes.port && !frame.src) open();
});
open();
