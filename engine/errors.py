"""The one exception family for input a user got wrong; its message is shown as is, without a traceback."""


class UserError(ValueError):
    """Bad input from a user (a position, a move, a parameter, a file); the message says what is wrong."""


def one_line(message: object) -> str:
    """``message`` as one line of a terminal: every character that is not printable (a newline, a carriage
    return, an escape sequence's ESC, Unicode's line separators) written as its Python escape, ``\\n``, ``\\x1b``.

    A refusal quotes what the user typed or what a file held, which may hold any character; written
    raw, a newline would split the one line of a refusal in two and an ESC would drive the terminal.
    """
    text = str(message)
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else char.encode("unicode_escape").decode("ascii") for char in text)
