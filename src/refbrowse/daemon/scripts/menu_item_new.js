// Whether an element was not among those shown before a menu button was clicked (a Set from menu_items).
(el, before) => !before.has(el)
