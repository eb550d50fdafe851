"""Cookies brought in from outside: JSON files and real browser profiles.

`jsonfile` checks a JSON cookie export; `profiles` knows where each browser keeps
its profiles; `sqlite` reads a cookie database from a private copy; `chromium`
and `firefox` turn rows into cookies (`crypto` and `keys` decrypt Chromium's
values). Everything here returns Playwright `add_cookies` dicts and never logs
a cookie value.
"""
