// Runs axe-core (already defined as `axe` in this document) on `scope` (an element, or null: the
// document) for the rules `tags` select (empty: axe's defaults). In a frame, `frame` is the context
// its parent gave it (audit_frame.js); on the page, null. Returns a handle to {rules, elements}:
// each violated rule with its first `perRule` elements described, and those elements themselves in
// order, so the caller can find their refs.
async ([scope, tags, perRule, frame]) => {
  // The rules axe applies to the top document only (its title, its lang, its viewport): those whose
  // `matches` turns on the context's `initiator`. A frame audited on its own runs as an initiator
  // (axe hands a non-initiator's results to its parent, not back), so they are turned off there.
  const topOnly = () => {
    const html = document.documentElement;
    const onlyTop = rule => {
      try {
        const top = rule.matches(html, null, { initiator: true });
        return top === true && rule.matches(html, null, { initiator: false }) === false;
      } catch (e) {
        return false;
      }
    };
    return axe._audit.rules.filter(onlyTop).map(rule => rule.id);
  };
  const unknown = tags.filter(t => !axe.getRules([t]).length);
  if (unknown.length) return { rules: [], elements: [], passed: [], unknown };
  // selectors: false: axe's unique CSS path of each element is most of its time on a big page (3.2 s
  // instead of 8.1 s for 2,000 failing images), and refs stand in for it.
  // iframes: false: each frame is audited on its own by the caller (axe would wait on frames
  // that have no axe of their own).
  const options = { resultTypes: ['violations'], elementRef: true, selectors: false, iframes: false };
  if (tags.length) options.runOnly = { type: 'tag', values: tags };
  // Rules whose verdict axe makes over the page and all its frames together (in their `after`
  // step): one main and one h1 somewhere, a frame's content counted in the landmark around its
  // iframe, heading levels running on across frames. A frame alone would read as a page without them.
  const wholePage = ['landmark-one-main', 'page-has-heading-one', 'region', 'heading-order'];
  if (frame) {
    options.rules = Object.fromEntries([...topOnly(), ...wholePage].map(id => [id, { enabled: false }]));
  }
  const context = scope || (frame ? { include: [document], ...frame } : document);
  const result = await axe.run(context, options);
  const order = { critical: 0, serious: 1, moderate: 2, minor: 3 };
  const elements = [];
  const rules = result.violations.map(v => ({
    id: v.id,
    impact: v.impact || 'minor',
    help: v.help,
    url: (v.helpUrl || '').split('?')[0],
    tags: v.tags,
    count: v.nodes.length,
    nodes: v.nodes.slice(0, perRule).map(n => {
      elements.push(n.element || null);
      const checks = [...(n.any || []), ...(n.all || []), ...(n.none || [])];
      return {
        html: (n.html || '').slice(0, 300),
        target: JSON.stringify(n.target || []).slice(0, 300),
        why: checks.length ? String(checks[0].message).slice(0, 300) : '',
        at: elements.length - 1,
      };
    }),
  }));
  rules.sort((a, b) => (order[a.impact] ?? 4) - (order[b.impact] ?? 4) || b.count - a.count);
  return { rules, elements, passed: (result.passes || []).map(p => p.id), unknown: [] };
}
