"""Sharing finished articles: Telegram's inline results written platform-free, and the deep
link that opens one in a chat.
"""
