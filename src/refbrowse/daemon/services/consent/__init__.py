"""Consent: consequential actions wait for a person's answer before they run.

`policy` says which actions are consequential (`BROWSE_CONFIRM`, a rules
file), `target` looks at what an action would do on the page, `gate` holds
such an action as pending until `confirm`, `deny`, the activity page, or its
expiry; dispatch asks the gate before every command runs.
"""
