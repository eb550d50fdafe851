// Which of these elements were not among `before` (a Set of the same query's elements taken before a
// click): [true, false, …] in order. Called with no `before`, it returns them as that Set.
(els, before) => before ? els.map((e) => !before.has(e)) : new Set(els)
