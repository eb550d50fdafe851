() => {
  const dump = s => { try { return Object.fromEntries(Object.entries(s)); } catch (e) { return null; } };
  return {local: dump(localStorage), session: dump(sessionStorage)};
}
