"""An action between two looks at its page: settling, the view diff and the report it prints.

Imports only `page` and `core`.
"""
