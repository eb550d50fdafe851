// What is selected in this frame now, and whether the frame has the focus: [text, focused].
// A field's selection is its own (the document's selection does not hold it in every browser).
() => {
  const a = document.activeElement;
  const field = a && (a instanceof HTMLInputElement || a instanceof HTMLTextAreaElement);
  let text = '';
  try {
    if (field && a.selectionStart !== null) text = a.value.slice(a.selectionStart, a.selectionEnd);
  } catch (_) {}
  return [text || String(getSelection() || ''), document.hasFocus()];
}
