"""The imperative shell around the session: the loop and its queue, the camera thread,
what systemd hears, housekeeping while the table is idle, the screen a wrong option
shows, and the one function that builds a table from its configuration.
"""
