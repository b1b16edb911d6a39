"""Alembic migrations of the bot's schema; ``Database.migrate()`` applies them."""
