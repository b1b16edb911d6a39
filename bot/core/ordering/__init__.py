"""What an order takes besides its dialog: the one purchase that charges, the upstream's time
estimates, files of titles for /toplu, and the CSV of orders.
"""
