// The context axe-core gives a frame it audits from its parent (as its own getFrameContexts does):
// not the page, so page-level rules stay with the top document; whether the frame takes focus; its
// size. null when the frame lies outside `scope` (an element of the same document, or null).
(frame, scope) => {
  if (scope && !scope.contains(frame)) return null;
  const tabindex = frame.getAttribute('tabindex');
  const box = frame.getBoundingClientRect();
  return {
    page: false,
    focusable: tabindex === null || parseInt(tabindex, 10) >= 0,
    size: { width: Math.round(box.width), height: Math.round(box.height) },
  };
}
