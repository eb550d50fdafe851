(key) => ({
  stamp: window[key] ? window[key].stamp() : null,
  elements: document.getElementsByTagName('*').length,
})
