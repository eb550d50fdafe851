// uses: marker_display
([tags, display]) => ({
  marker: marker_display([tags, display]),
  sx: scrollX, sy: scrollY, vw: innerWidth, vh: innerHeight, dpr: devicePixelRatio,
  dw: Math.max(document.documentElement.scrollWidth, document.body ? document.body.scrollWidth : 0),
  dh: Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0),
})
