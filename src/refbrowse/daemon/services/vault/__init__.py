"""The vault: saved logins, encrypted at rest outside every workspace, and `auth login` by name.

`key` finds the key (the OS keyring, else a 0600 file in the user's config
folder), `store` keeps the logins encrypted under it, `totp` makes one-time
codes, `login` fills a site's login form with a saved login.
"""
