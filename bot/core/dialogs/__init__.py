"""The dialogs, one module per command family; the tables of ``bot.core.routes`` name them."""
