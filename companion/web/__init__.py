"""The phone page: the table served to every phone at the table, live, and the staff's
tools behind the table's PIN.

A server thread in the companion's own process. It never touches the game: it reads
the snapshot the loop publishes and the journal's games, and it posts what a phone
asks for to the loop's queue, as the buttons do.
"""
