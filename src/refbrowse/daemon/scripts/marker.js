// The headed window's marker: a line and a pill over the page, drawn in a closed shadow root.
(tag, colour) => {
  if (window.top !== window) return;
  const css = (el, props) => {
    for (const [k, v] of Object.entries(props)) el.style.setProperty(k, v, "important");
  };
  const place = () => {
    const root = document.documentElement;
    if (!root || root.querySelector(`:scope > ${tag}`)) return;
    const host = document.createElement(tag);
    host.setAttribute("aria-hidden", "true");
    css(host, {all: "initial", display: "block", position: "fixed", top: "0", left: "0",
               width: "0", height: "0", overflow: "visible", "z-index": "2147483647",
               "pointer-events": "none"});
    const shadow = host.attachShadow({mode: "closed"});
    const line = document.createElement("div");
    css(line, {position: "fixed", top: "0", left: "0", right: "0", height: "3px",
               background: colour, "pointer-events": "none"});
    const pill = document.createElement("div");
    pill.textContent = "refbrowse";
    css(pill, {position: "fixed", top: "5px", right: "8px", padding: "1px 8px",
               "border-radius": "8px", background: colour, color: "#fff",
               font: "600 11px/16px system-ui, sans-serif", "pointer-events": "none",
               opacity: "0.92"});
    shadow.append(line, pill);
    root.appendChild(host);
  };
  // When a person last used this tab (pointer or key), for `resume` to take the tab they ended on.
  const touched = (event) => {
    const host = event.isTrusted && document.documentElement.querySelector(`:scope > ${tag}`);
    if (host) host.dataset.touched = String(Date.now());
  };
  addEventListener("pointerdown", touched, true);
  addEventListener("keydown", touched, true);
  place();
  document.addEventListener("DOMContentLoaded", place);
  window.addEventListener("load", place);
}
