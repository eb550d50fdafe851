// Runs axe-core (already defined as `axe` in the page) on `scope` (an element, or null: the
// document) for the rules `tags` select (empty: axe's defaults). Returns a handle to
// {rules, elements}: each violated rule with its first `perRule` elements described, and those
// elements themselves in order, so the caller can find their refs.
async ([scope, tags, perRule]) => {
  const unknown = tags.filter(t => !axe.getRules([t]).length);
  if (unknown.length) return { rules: [], elements: [], passed: 0, unknown };
  // selectors: false: axe's unique CSS path of each element is most of its time on a big page (3.2 s
  // instead of 8.1 s for 2,000 failing images), and refs stand in for it.
  const options = { resultTypes: ['violations'], elementRef: true, selectors: false };
  if (tags.length) options.runOnly = { type: 'tag', values: tags };
  const result = await axe.run(scope || document, options);
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
  return { rules, elements, passed: (result.passes || []).length, unknown: [] };
}
