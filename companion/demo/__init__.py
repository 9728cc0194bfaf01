"""The whole companion on a simulated table: the demo a new user runs, and the trials the
benchmarks and tests play of the reader at a simulated café table.
"""
