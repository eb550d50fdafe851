"""`python -m refbrowse.demo` prints the demo page's URL."""

from refbrowse.demo import url

print(url())
