"""``plyscope serve``: the explorer in a web browser (textual-serve), and a headless browser to check it."""
