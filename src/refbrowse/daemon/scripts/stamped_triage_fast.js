// `stamped_triage` in a document whose probe is installed already: null when it is not. With a
// `limit`, a document of more elements answers with its count alone (see the probe's `stampedTriage`).
([key, limit]) => window[key] ? window[key].stampedTriage(limit) : null
