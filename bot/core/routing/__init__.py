"""Where each chat event goes: the Conversations entry point every adapter calls, the tables of
commands, replies and presses (one entry each, so a new button is one line), and the
dispatch that runs a turn and turns known failures into plain messages.
"""
