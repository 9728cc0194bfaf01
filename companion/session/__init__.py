"""The table's game as a state machine: one frozen record per phase, pure transitions
that return the next state and the effects for the runtime to carry out; setting up a
game, the round editor, who plays which colour, the table read as a round.
"""
