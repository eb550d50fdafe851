// uses: deep_text
(els) => {
  const shown = els.filter(e => !e.checkVisibility || e.checkVisibility());
  return (shown.length ? shown : els).map(deep_text);
}
