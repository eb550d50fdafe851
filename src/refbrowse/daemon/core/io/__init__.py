"""What crosses a command's edges: the request in, the reply out, fenced page text, notices.

Files a command reads or writes are opened here too, safely (`nofollow`).
"""
