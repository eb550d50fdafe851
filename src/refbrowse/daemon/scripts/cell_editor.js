// Whether a grid's cell has opened its editor: the focused element is a text field other than the
// cell itself (Gradio's "Edit cell" box, Glide Data Grid's overlay, AG Grid's inline input). The
// cell is handed in to tell its own focus from an editor's.
(cell) => {
  let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  if (!a || a === cell || a === document.body) return false;
  const text = a.tagName === 'TEXTAREA' || a.isContentEditable
    || (a.tagName === 'INPUT' && !['checkbox', 'radio', 'button', 'submit', 'file', 'range'].includes(a.type));
  return text && !a.readOnly && !a.disabled;
}
