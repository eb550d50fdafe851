// uses: dom
() => {
  // Password values of a child frame, which the main frame's script cannot reach when cross-origin.
  return dom.shadowRoots().flatMap(root => Array.from(root.querySelectorAll('input[type=password]')))
    .filter(e => e.value).map(e => e.value);
}
