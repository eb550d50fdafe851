// Let go of the element an action held under `key` (see `direct_input`): its last look has read it.
key => { delete window[key]; }
