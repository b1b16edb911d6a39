"""Makale Bot: order SEO articles from Telegram, Slack or a terminal."""
