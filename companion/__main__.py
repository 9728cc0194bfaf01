"""`python -m companion` runs the command line."""

from companion.cli import entry_point

entry_point()
