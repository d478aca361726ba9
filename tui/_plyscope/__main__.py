"""``python -m plyscope``: the command line (``plyscope.tui.entry``)."""

from plyscope.tui.entry import main

raise SystemExit(main())
