"""The dialogs, one module (or package, ``order``) per command family, and the home
screen; the tables of ``bot.core.routing.routes`` name them."""
