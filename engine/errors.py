"""The one exception family for input a user got wrong; its message is shown as is, without a traceback."""


class UserError(ValueError):
    """Bad input from a user (a position, a move, a parameter, a file); the message says what is wrong."""
