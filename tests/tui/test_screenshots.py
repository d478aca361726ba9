"""The screenshots' SVGs draw their spaces: a run of text that starts with one keeps it in every renderer."""

from __future__ import annotations

import asyncio
import xml.etree.ElementTree as ET
from pathlib import Path

from plyscope.tui.screenshots import VIEWS, main, shoot

XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"


def test_the_tree_view_keeps_the_spaces_that_start_its_runs_of_text(tmp_path: Path) -> None:
    """Issue 36, 12: ``screenshots/tree.svg`` ran the reading guide's keys into their words (``vvalue``,
    ``prunedchildren cut off``) and the tree drawing's leaves together (``614``): each is a run of text of its own
    that starts with a space, which a renderer drops under XML's default whitespace handling."""
    path = asyncio.run(shoot(next(view for view in VIEWS if view.name == "tree"), tmp_path))
    root = ET.parse(path).getroot()
    assert root.get(XML_SPACE) == "preserve"
    runs = [element.text or "" for element in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "\xa0value,\xa0for\xa0the\xa0first\xa0player" in runs  # (after a run "v" of its own: its space kept)


def test_only_the_views_named_are_drawn(tmp_path: Path) -> None:
    assert main([str(tmp_path), "--only", "nim"]) == 0
    assert [path.name for path in tmp_path.iterdir()] == ["nim.svg"]
