"""Numbers typed by users, read one way everywhere: budgets, seeds, sizes, piles, counts, parameters.

Every number a person types (on the command line, in a form or a bar, in a saved file) is
read here, so every field refuses the same things with one line that names the field:

* only ASCII digits: ``str.isdigit()`` also accepts superscripts and other Unicode digits
  that ``int()`` refuses (``²``) or reads unexpectedly (``４``);
* whole numbers may group digits with ``_`` or ``,`` (``100_000``, ``100,000``), ``,`` only in thousands
  (``0,5`` and ``1,2`` are refused, not read as 5 and 12);
* no whole number of more than ``MAX_DIGITS`` digits, leading zeros aside (Python would spend
  seconds converting, or refuse, a string of thousands of digits), and no number too large for
  a float: they are out of every field's range, and refused as that; each field has a range,
  named when refused (``OutOfRange``);
* ``nan``, ``inf`` and ``-inf`` are not numbers of seconds or of anything else (``1e999`` is a
  number, out of range);
* seeds are whole numbers from 0 to ``MAX_SEED`` (negative seeds are refused everywhere).

Refusals raise ``NumberError`` (a ``UserError``): the command line prints its message as one
line with exit status 2, a form or a bar shows it beside the field.
"""

from __future__ import annotations

import math
import re

from plyscope.engine.errors import UserError

MAX_DIGITS = 30
"""The most digits a number may have (every field's range is far below 10^30)."""
MAX_SEED = (1 << 63) - 1
"""The largest seed: seeds are kept to 63 bits, as numpy's seed sequences and the arena's derived seeds are."""
MAX_MOVES = 10**12
"""The largest budget in moves (calls to the move operator): a year of search at 30,000 a second."""
MAX_SECONDS = 10**7
"""The largest budget in seconds: about four months."""
MAX_NODES = 10**10
"""The largest node cap (about a terabyte of tree)."""

_GROUPED = r"[0-9]+(?:_[0-9]+|,[0-9]{3})*"
"""Digits, grouped by ``_`` anywhere (as Python writes them) or by ``,`` in thousands: ``1,000`` but never ``0,5``
(half, in much of Europe) or ``1,2``, which would silently read as 5 and 12."""
_INTEGER = re.compile(rf"[+-]?{_GROUPED}")
_DECIMAL = re.compile(rf"[+-]?(?:{_GROUPED}(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


class NumberError(UserError):
    """A number that cannot be read, or out of its field's range; the message names the field."""


class OutOfRange(NumberError):
    """A number read, but outside its field's range (or of more than ``MAX_DIGITS`` digits); the message says
    the range."""


def signed(value: float, decimals: int | None = 0) -> str:
    """``value`` written with its sign to ``decimals`` places (``None``: as short as Python's ``g`` writes it):
    ``+3``, ``-5``, ``+3.10``, ``+2.5``; a zero, or a number that rounds to one there, has none (``0``, ``0.00``,
    never ``-0.00``): an even score belongs to neither side."""
    form = "g" if decimals is None else f".{decimals}f"
    written = format(value, form)
    if float(written) == 0:
        return written.lstrip("-")
    return format(value, "+" + form)


def shown(text: object, most: int = 24) -> str:
    """``text`` as a message quotes it: at most ``most`` characters, control characters escaped."""
    value = str(text)
    if len(value) > most:
        value = value[: most - 1] + "…"
    return value.encode("unicode_escape").decode("ascii") if not value.isprintable() else value


def parse_int(text: object, field: str, *, lo: int | None = None, hi: int | None = None) -> int:
    """The whole number ``text`` (an ``int``, or text of ASCII digits) for ``field``, within ``[lo, hi]``."""
    if isinstance(text, bool):
        raise NumberError(f"{field}: {text} is not a whole number")
    if isinstance(text, int):
        if abs(text) >= 10**MAX_DIGITS:  # far out of every range (and str() refuses past 4,300 digits)
            raise _too_many_digits(field, lo, hi)
        value = text
    else:
        written = str(text).strip()
        if not _INTEGER.fullmatch(written):
            raise NumberError(f"{field}: '{shown(written)}' is not a whole number{_range(lo, hi)}")
        plain = written.replace("_", "").replace(",", "")
        sign = plain[0] if plain[0] in "+-" else ""
        digits = plain.lstrip("+-").lstrip("0")
        if len(digits) > MAX_DIGITS:
            raise _too_many_digits(field, lo, hi)
        value = int(sign + (digits or "0"))
    _check_range(value, field, lo, hi)
    return value


def parse_float(
    text: object, field: str, *, lo: float | None = None, hi: float | None = None, above: float | None = None
) -> float:
    """The finite number ``text`` for ``field``, within ``[lo, hi]`` (and greater than ``above``, if given)."""
    if isinstance(text, bool):
        raise NumberError(f"{field}: {text} is not a number")
    if isinstance(text, int) and abs(text) >= 10**MAX_DIGITS:  # float() would overflow, or round it
        raise _too_many_digits(field, lo, hi, above)
    if isinstance(text, int | float):
        value = float(text)
    else:
        written = str(text).strip()
        if not _DECIMAL.fullmatch(written):
            raise NumberError(f"{field}: '{shown(written)}' is not a number{_range(lo, hi, above)}")
        plain = written.replace("_", "").replace(",", "")
        value = float(plain)  # (any number of digits: float() reads them in linear time, and rounds)
        if not math.isfinite(value):  # too large for a float (1e999, a thousand digits): a number, out of range
            raise OutOfRange(f"{field}: {shown(written)} is out of range{_range(lo, hi, above)}")
    if not math.isfinite(value):
        raise NumberError(f"{field}: {shown(text)} is not a finite number{_range(lo, hi, above)}")
    if above is not None and value <= above:
        raise OutOfRange(f"{field}: {_number(value)} is out of range{_range(lo, hi, above)}")
    _check_range(value, field, lo, hi)
    return value


def parse_seed(text: object, field: str = "seed") -> int:
    """A seed: a whole number from 0 to ``MAX_SEED``."""
    return parse_int(text, field, lo=0, hi=MAX_SEED)


def parse_moves(text: object, field: str = "--moves") -> int:
    """A budget in moves: 1 to ``MAX_MOVES``."""
    return parse_int(text, field, lo=1, hi=MAX_MOVES)


def parse_seconds(text: object, field: str = "--seconds") -> float:
    """A budget in seconds: more than 0, at most ``MAX_SECONDS``, finite."""
    return parse_float(text, field, above=0.0, hi=MAX_SECONDS)


def _number(value: float) -> str:
    """``1,000,000``, ``0.5``: a bound as a message writes it."""
    if isinstance(value, int) or (value.is_integer() and abs(value) < 1e16):
        return f"{int(value):,}"
    return f"{value:g}"


def _range(lo: float | None, hi: float | None, above: float | None = None) -> str:
    """`` (from 1 to 100)``, `` (more than 0 and at most 10,000,000)``, `` (0 or more)``..."""
    low = f"more than {_number(above)}" if above is not None else (None if lo is None else _number(lo))
    if low is None and hi is None:
        return ""
    if hi is None:
        return f" ({low} or more)" if above is None else f" ({low})"
    if low is None:
        return f" (at most {_number(hi)})"
    return f" ({low} and at most {_number(hi)})" if above is not None else f" (from {low} to {_number(hi)})"


def _too_many_digits(field: str, lo: float | None, hi: float | None, above: float | None = None) -> OutOfRange:
    return OutOfRange(f"{field}: a number of over {MAX_DIGITS} digits is out of range{_range(lo, hi, above)}")


def _check_range(value: float, field: str, lo: float | None, hi: float | None) -> None:
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        written = _number(value) if isinstance(value, float) else shown(value)
        raise OutOfRange(f"{field}: {written} is out of range{_range(lo, hi)}")
