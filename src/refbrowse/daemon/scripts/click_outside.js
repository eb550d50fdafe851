// A click on the page's body outside every menu, as a person's click on empty space: what closes a menu
// that neither Escape nor its own button closes. Pointer and mouse events, for libraries that listen to either.
() => {
  for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click']) {
    const Event = type.startsWith('pointer') ? PointerEvent : MouseEvent;
    document.body.dispatchEvent(new Event(type, { bubbles: true, cancelable: true, composed: true, view: window }));
  }
}
