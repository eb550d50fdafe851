// The @ref overlay: a label for each ref of the latest snapshot, where its element was.
//
// Like the headed window's marker, the labels live in a closed shadow root on a
// zero-size, aria-hidden, click-through host outside <body>: snapshots, `text`
// and hit tests do not see them, and `screenshot` hides the host while it
// takes the picture.

(() => {
  if (window.top !== window) return;
  const TAG = "refbrowse-refs";
  const COLOUR = "#0969da";
  let host = null;
  let shadow = null;

  const css = (el, props) => {
    for (const [k, v] of Object.entries(props)) el.style.setProperty(k, v, "important");
  };

  const clear = () => {
    if (host) host.remove();
    host = null;
    shadow = null;
  };

  const label = (ref) => {
    const [x, y] = ref.box;
    const tag = document.createElement("div");
    tag.textContent = ref.ref;
    css(tag, {position: "fixed", left: `${Math.max(0, x)}px`, top: `${Math.max(0, y - 2)}px`,
              padding: "0 3px", "border-radius": "3px", background: COLOUR, color: "#fff",
              font: "600 11px/14px ui-monospace, monospace", "pointer-events": "none",
              "white-space": "nowrap", opacity: "0.9"});
    return tag;
  };

  const draw = (state) => {
    clear();
    if (!state || !state.url || state.url !== location.href) return;
    const placed = state.refs.filter((ref) => Array.isArray(ref.box));
    if (!placed.length) return;
    host = document.createElement(TAG);
    host.setAttribute("aria-hidden", "true");
    css(host, {all: "initial", display: "block", position: "fixed", top: "0", left: "0", width: "0",
               height: "0", overflow: "visible", "z-index": "2147483646", "pointer-events": "none"});
    shadow = host.attachShadow({mode: "closed"});
    shadow.append(...placed.map(label));
    document.documentElement.appendChild(host);
  };

  chrome.runtime.onMessage.addListener((message) => {
    if (message && message.refs) draw(message.refs);
  });
  chrome.runtime.sendMessage("refs?").then(draw).catch(() => {});
})();
