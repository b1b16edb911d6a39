"""The clients an agency orders for: their names and defaults, the question that picks one, and
the /musteriler dialog.
"""
