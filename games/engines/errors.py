"""Errors shared by every engine."""


class IllegalMove(Exception):
    """A move the rules do not allow; the message is a sentence for the player."""
