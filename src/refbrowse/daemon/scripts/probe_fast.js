// `probe_call` in a document whose probe is installed already: null when it is not.
([key, op, args, also]) => window[key] ? window[key].call(op, args, also) : null
