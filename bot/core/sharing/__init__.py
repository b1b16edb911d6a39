"""Sharing finished articles: Telegram's inline results written platform-free (``inline``),
and the deep link's other end, /start, that opens one in a chat (``links``).
"""
