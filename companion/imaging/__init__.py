"""Pictures of a round: the camera frame with what was read drawn on it, and the pictures
each round keeps in the journal.
"""
