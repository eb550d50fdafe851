// The activity page's consent part: actions held for a person's answer, above every pane, with
// Approve and Deny. Polled, so a held action shows within a couple of seconds on any pane.
"use strict";

(() => {
  const box = document.getElementById("held");
  const node = (tag, props, ...children) => {
    const n = Object.assign(document.createElement(tag), props || {});
    for (const child of children) n.append(child);
    return n;
  };
  const answers = [];  // the last few answers given here, with what came of them
  async function answer(id, verdict, li) {
    for (const b of li.querySelectorAll("button")) b.disabled = true;
    const response = await fetch("/api/consent/answer", {
      method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({id, answer: verdict})});
    const result = await response.json();
    answers.unshift({id, text: `${verdict === "approve" ? "Approved" : "Denied"}: ${result.output || result.error || ""}`});
    answers.splice(5);
    await refresh(true);
  }
  function entry(held) {
    const li = node("li", {className: "held"});
    li.dataset.id = held.id;
    const approve = node("button", {className: "approve", textContent: "Approve"});
    const deny = node("button", {className: "deny", textContent: "Deny"});
    approve.addEventListener("click", () => answer(held.id, "approve", li));
    deny.addEventListener("click", () => answer(held.id, "deny", li));
    li.append(node("span", {className: "said", textContent: held.what}),
      node("span", {className: "kinds", textContent: `${held.kinds.join(", ")} · ${held.session} · expires in ${held.expires_in_s} s`}),
      node("span", {className: "answers"}, approve, deny));
    return li;
  }
  async function refresh(force) {
    let data;
    try {
      data = await (await fetch("/api/consent")).json();
    } catch (e) {
      return;
    }
    if (!data.ok) return;
    if (!force && box.querySelector("button:disabled")) return;  // an answer is on its way
    box.hidden = !data.held.length && !answers.length;
    const done = answers.map(a => node("li", {className: "answered", textContent: a.text}));
    for (const [i, li] of done.entries()) li.dataset.answered = answers[i].id;
    box.replaceChildren(node("h2", {textContent: data.held.length ? "Waiting for your answer" : "Answered"}),
      node("ul", {}, ...data.held.map(entry)), node("ul", {className: "answers"}, ...done));
  }
  refresh();
  setInterval(refresh, 2000);
})();
