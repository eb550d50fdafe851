"""refbrowse: a web browser that AI agents drive from a shell."""

__version__ = "0.1.0"
