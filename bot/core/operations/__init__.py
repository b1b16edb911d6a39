"""What the operators see and what runs on its own: metrics, the admin chat's alerts, and
housekeeping.
"""
