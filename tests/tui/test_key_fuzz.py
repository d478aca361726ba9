"""Long random key sequences on every screen, as an impatient user types them: nothing may crash.

Keys come from everything the screens bind, the board's keys, tab, enter and escape; some
are posted in bursts (faster than the screen is redrawn), some one at a time.  Seeded, so a
failure replays.  Quitting is left out (``q``, ``ctrl+c``).  Each run works in its own
directory: a save typed at random lands there.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from textual import events
from textual.binding import Binding

from plyscope.engine.agents import Agent
from plyscope.engine.game_record import PlayedGame
from plyscope.engine.kits import make_game
from plyscope.engine.search.base import Limit
from plyscope.engine.search.registry import AgentSpec
from plyscope.tui.app import PlyscopeApp
from plyscope.tui.contest import compared_agents
from plyscope.tui.screens.compare import CompareScreen
from plyscope.tui.screens.explore import ExploreScreen
from plyscope.tui.screens.play import PlayScreen
from tests.tui.contest_helpers import app_with
from tests.tui.helpers import make_app

LEFT_OUT = {"q", "ctrl+c"}
EXTRA = ["tab", "enter", "escape", "left", "right", "up", "down", "1", "4", "7", "space", "question_mark"]


def keys_of(*screens: type) -> list[str]:
    keys: list[str] = list(EXTRA)
    for screen in screens:
        for binding in Binding.make_bindings(screen.BINDINGS):  # type: ignore[attr-defined]
            if binding.key not in LEFT_OUT and binding.key not in keys:
                keys.append(binding.key)
    return keys


def explorer_app() -> PlyscopeApp:
    return make_app(algorithm="rivest", budget=3000)


def play_app() -> PlyscopeApp:
    limit = Limit(moves=200)
    played = PlayedGame(make_game("connect4").start(), None, Agent(AgentSpec.parse("mcts:k=8"), limit))
    return app_with("connect4", lambda: PlayScreen(played, default_limit=limit, clock=lambda: 0.0))


def compare_app() -> PlyscopeApp:
    total = Limit(moves=2000)
    state = make_game("connect4").parse("4453")
    agents = compared_agents(["rivest", "mcts:k=4", "alphabeta"], total, state.game)
    return app_with("connect4", lambda: CompareScreen(state, agents, total, clock=lambda: 0.0))


def nim_app() -> PlyscopeApp:
    return make_app(game="nim", position="3,4,5", algorithm="pns")


CASES = {
    "explore": (explorer_app, keys_of(ExploreScreen, PlayScreen, CompareScreen)),
    "play": (play_app, keys_of(PlayScreen)),
    "compare": (compare_app, keys_of(CompareScreen)),
    "nim": (nim_app, keys_of(ExploreScreen, PlayScreen)),
}


async def fuzz(make: object, keys: list[str], seed: int, presses: int) -> None:
    assert callable(make)
    app = make()
    chance = random.Random(seed)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        sent = 0
        while sent < presses:
            burst = chance.choice((1, 1, 1, 3, 6))
            for key in chance.choices(keys, k=burst):
                app.post_message(events.Key(key, key if len(key) == 1 else None))
            sent += burst
            await pilot.pause(chance.choice((0.0, 0.01, 0.05)))  # (gaps of several lengths between bursts: the fuzz)
        await pilot.pause(0)  # every key sent handled before the app ends


@pytest.mark.parametrize("seed", [1])
@pytest.mark.parametrize("case", list(CASES))
def test_random_keys_never_crash(case: str, seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # random keys may save a game under a random name: not in the checkout
    make, keys = CASES[case]
    asyncio.run(asyncio.wait_for(fuzz(make, keys, seed, 150), 300))
