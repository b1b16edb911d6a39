"""The dialogs, one module per command family; ``bot.core.conversation`` routes to them."""
