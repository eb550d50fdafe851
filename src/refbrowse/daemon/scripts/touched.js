(tag) => Number(document.documentElement.querySelector(`:scope > ${tag}`)?.dataset.touched || 0)
