"""What a finished article becomes: its chat messages and files, the quality card, the zip of
many, the buttons that order it again, the cached list of a user's articles, and finding one
by a word of its title.
"""
