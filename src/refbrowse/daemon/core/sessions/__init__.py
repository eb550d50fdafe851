"""Sessions and their tabs: a browser context each, its pages, refs, and what other layers add to them."""
