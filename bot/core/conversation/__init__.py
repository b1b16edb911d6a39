"""What a chat exchange is made of, on every platform: the events a user causes, the screens
and effects the core answers with, their rich text and markup, button actions, safe inputs,
forms, and the question before a removal.
"""
