// uses: deep_text
() => deep_text(document.body || document.documentElement)
