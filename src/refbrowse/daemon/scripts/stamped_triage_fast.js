// `stamped_triage` in a document whose probe is installed already: null when it is not.
(key) => window[key] ? window[key].stampedTriage() : null
