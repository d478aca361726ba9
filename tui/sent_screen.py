"""Only what changed on the screen is sent to the terminal (or the browser of ``plyscope serve``).

Textual repaints every line of a widget that refreshes, and a step of the explorer refreshes most of
them: the tree (whenever follow mode opens or closes a branch), the board (the line drawn on it), the
stats.  Most of those lines are the same as before, yet each was written again: about 24 KB a step in
a served session, which the page then parses and draws.  ``SentScreen`` keeps what was last written
at each *chop* of the screen (the compositor's piece of a line between two widgets' edges) and drops
from an update the chops that would write the very same text there again.
"""

from __future__ import annotations

from rich.console import Console
from textual._compositor import ChopsUpdate, LayoutUpdate
from textual.strip import Strip


class SentScreen:
    """What the terminal shows, chop by chop, as last written: ``row -> {x: (end, text)}``."""

    def __init__(self) -> None:
        self._rows: dict[int, dict[int, tuple[int, str]]] = {}

    def forget(self) -> None:
        """Something other than a compositor update was written: nothing is known to be on the screen."""
        self._rows.clear()

    def whole(self, update: LayoutUpdate, console: Console) -> None:
        """``update`` writes every line of its region: remember it all."""
        self._rows.clear()
        for y, line in enumerate(update.strips, update.region.y):
            row = self._rows[y] = {}
            x = update.region.x
            for strip in line:
                end = x + strip.cell_length
                row[x] = (end, strip.render(console))
                x = end

    def changed(self, update: ChopsUpdate, console: Console) -> ChopsUpdate | None:
        """``update`` without the chops the terminal already shows (``None``: nothing left to write).

        The chops written are those ``ChopsUpdate.render_segments`` writes: each chop of a span's line that
        reaches into the span, from the chop's start to its end or the span's, whichever is first.
        """
        chops: list[dict[int, Strip | None]] = [dict(line) for line in update.chops]
        spans = []
        for y, x1, x2 in update.spans:
            line = chops[y]
            row = self._rows.setdefault(y, {})
            writes = False
            for end, (x, strip) in zip(update.chop_ends[y], list(line.items()), strict=False):
                if strip is None or x > x2 or end <= x1:
                    continue
                if end <= x2:  # written whole: skipped if it is there already
                    text = strip.render(console)
                    if row.get(x) == (end, text):
                        line[x] = None
                        continue
                    _forget(row, x, end)
                    row[x] = (end, text)
                elif x < x2:  # written in part: what was there is no longer known
                    _forget(row, x, x2)
                else:  # a chop starting where the span ends: nothing of it would be written
                    line[x] = None
                    continue
                writes = True
            if writes:
                spans.append((y, x1, x2))
        return ChopsUpdate(chops, spans, update.chop_ends) if spans else None


def _forget(row: dict[int, tuple[int, str]], start: int, end: int) -> None:
    """Forget the chops of ``row`` that overlap the cells ``start`` to ``end`` (written over)."""
    for x in [x for x, (chop_end, _) in row.items() if x < end and chop_end > start]:
        del row[x]
