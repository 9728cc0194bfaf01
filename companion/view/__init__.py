"""What the screen and the phone page show, worked out from the session's snapshot: the
view models both draw from.
"""
