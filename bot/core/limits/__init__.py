"""What keeps one user from stalling or filling the bot for the others: the allow lists, the
cap on requests in flight, and the pace of sends under each platform's limits (shared across
replicas).
"""
