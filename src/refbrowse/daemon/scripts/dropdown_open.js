// Whether a dropdown (or the combobox inside it) says its list is open: a list that stays open once
// an option is picked (a box that takes several) is closed after `select`.
(e) => (e.matches('[aria-expanded]') ? e : e.querySelector('[role=combobox][aria-expanded]') || e)
  .getAttribute('aria-expanded') === 'true'
