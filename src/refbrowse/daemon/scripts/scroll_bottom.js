() => {
  const el = document.scrollingElement || document.documentElement;
  window.scrollTo(0, el.scrollHeight);
  return [Math.round(scrollY), el.scrollHeight];
}
