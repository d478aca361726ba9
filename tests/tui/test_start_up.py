"""A session of the explorer starts without what it does not need yet: each ``plyscope serve`` tab is a new process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_explorer_on_its_default_search_starts_without_numpy() -> None:
    """numpy costs about 0.15 s of CPU to import; the default search (Rivest's) and the screen do not use it.  The truth
    column's solver, which loads ahead on a timer (numba, and numpy with it), is left out: what it imports, and when,
    is no part of start-up (under load the test outlasted the timer, and failed)."""
    code = (
        "import sys, asyncio\n"
        "from plyscope.tui.app import PlyscopeApp\n"
        "from plyscope.tui.session import SearchConfig, Session\n"
        "async def main():\n"
        "    app = PlyscopeApp(Session.create(SearchConfig()), load_ahead=False)\n"
        "    async with app.run_test() as pilot:\n"
        "        await pilot.press('s')\n"
        "        await app.workers.wait_for_complete()\n"
        "        await pilot.pause()\n"
        "asyncio.run(main())\n"
        "assert 'numpy' not in sys.modules, 'numpy'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
