// The everyday name of a CSS colour ("rgb(255, 215, 0)" → "yellow"); '' for a transparent one. Shared by the
// page scripts that name what has no name but its colour (SVG shapes, colour swatches).
(css) => {
  const m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)/.exec(css || '');
  if (!m || (m[4] !== undefined && Number(m[4]) < 0.1)) return '';
  const [r, g, b] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const NAMES = [['black', 0, 0, 0], ['white', 255, 255, 255], ['grey', 128, 128, 128],
    ['light grey', 200, 200, 200], ['dark grey', 64, 64, 64], ['red', 230, 30, 30], ['dark red', 139, 0, 0],
    ['orange', 255, 150, 0], ['yellow', 255, 230, 0], ['olive', 128, 128, 0], ['green', 0, 160, 0],
    ['light green', 144, 238, 144], ['dark green', 0, 90, 0], ['teal', 0, 128, 128], ['cyan', 0, 230, 230],
    ['light blue', 150, 200, 255], ['blue', 20, 60, 230], ['navy', 0, 0, 128], ['purple', 128, 0, 160],
    ['violet', 200, 120, 240], ['magenta', 240, 0, 240], ['pink', 255, 170, 200], ['brown', 140, 80, 30],
    ['beige', 245, 235, 200]];
  let best = '', distance = Infinity;
  for (const [name, R, G, B] of NAMES) {
    // weighted by how the eye tells colours apart (a cheap stand-in for a perceptual distance)
    const d = 2 * (r - R) ** 2 + 4 * (g - G) ** 2 + 3 * (b - B) ** 2;
    if (d < distance) { best = name; distance = d; }
  }
  return best;
}
