async ([code, limit]) => {
  // The value as text (strings as they are, objects as pretty JSON) and as a JSON value, each
  // cut to `limit` characters here: a huge value must not cross the driver. Then the text's length.
  const describe = value => {
    if (value === undefined) return 'undefined';
    if (typeof value === 'string') return value;
    if (typeof value === 'function') return String(value);
    if (typeof Node !== 'undefined' && value instanceof Node)
      return value.outerHTML ?? value.textContent ?? String(value);
    try {
      const text = JSON.stringify(value, null, 2);
      if (text !== undefined) return text;
    } catch (e) {}
    return String(value);
  };
  const asJson = value => {
    if (value === undefined || typeof value === 'function') return null;
    if (typeof Node !== 'undefined' && value instanceof Node) return describe(value);
    try {
      const text = JSON.stringify(value);
      if (text !== undefined && text.length > limit) return null;
      return text === undefined ? null : JSON.parse(text);
    } catch (e) { return String(value).slice(0, limit); }
  };
  let expression = true;
  try { new Function('return (' + code + '\n)'); } catch (e) { expression = false; }
  if (!expression) {
    try { new Function('{' + code + '\n}'); } catch (e) {
      // Parse the code as it was given, so the error names what is in it, not the
      // braces added here; the first statement throws, so none of it runs.
      try { globalThis.eval('throw null;\n' + code); } catch (raw) { throw raw ?? e; }
      throw e;
    }
  }
  let value = globalThis.eval(expression ? '(' + code + '\n)' : '{' + code + '\n}');
  if (value instanceof Promise) value = await value;
  const text = String(describe(value));
  const cut = text.length > limit ? text.slice(0, limit) : text;
  return [cut.length <= limit ? cut : '', asJson(value), text.length];
}
