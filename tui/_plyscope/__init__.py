"""plyscope: a terminal explorer for game-tree search.

Installed as one package: ``plyscope.engine`` (the searchers, games and solver: no Textual, no Rich; the folder
``engine/``) and ``plyscope.tui`` (the app and the command line; the folder ``tui/``).  ``python -m plyscope``
runs the command line, as ``plyscope`` does.
"""
