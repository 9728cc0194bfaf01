"""Reading the table from camera frames: decode, map to the board, assign, stabilise.

Numpy frames in, plain frozen records out. Each step is its own module and is tested
on its own; `pipeline.TableReader` chains them for one frame.
"""
