"""What the command palette offers beyond each screen's keys (``help.key_commands``): the choices the registry
gives, for the explorer's search and for a game's sides and hints.

The explorer's ``a`` and ``g`` open the palette on the same choices (``algorithm_picks``,
``game_picks``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import partial

from textual.app import SystemCommand
from textual.command import SimpleCommand
from textual.fuzzy import Matcher
from textual.system_commands import SystemCommandsProvider

from plyscope.engine.agents import Agent
from plyscope.engine.game_record import Controller
from plyscope.engine.kits import game_choices
from plyscope.engine.search.base import Limit
from plyscope.engine.search.registry import AgentSpec, fitting_algorithms
from plyscope.tui.session import Session

Choose = Callable[[str], object]
"""Takes the name chosen (an algorithm's, a game's)."""

FIRST_WORDS_BOOST = 3.0
"""How much more a command scores whose title begins with the words typed (``diff``: *Diff the marked step's
tree*)."""
WHOLE_WORDS_BOOST = 2.0
"""How much more a command scores whose title has the words typed as whole words further on (``diff``: *Mark the
step shown, to diff it*); a title where they are only part of a word (``mark``: *Diff the marked step*) gets
Textual's score alone."""


class WordMatcher(Matcher):
    """Textual's fuzzy matcher, with the words typed ranked as words: a title that begins with them first, then one
    that has them as whole words, then one where they are only found (Textual scored the three alike)."""

    def match(self, candidate: str) -> float:
        score = super().match(candidate)
        typed = self.query.strip()
        if not score or not typed:
            return score
        flags = 0 if self.case_sensitive else re.IGNORECASE
        words = rf"\b{re.escape(typed)}\b"
        if re.match(words, candidate, flags):
            return score * FIRST_WORDS_BOOST
        return score * WHOLE_WORDS_BOOST if re.search(words, candidate, flags) else score


class KeyCommandsProvider(SystemCommandsProvider):
    """The palette's commands (Textual's, every key of the screen, the screen's choices: ``App.get_system_commands``),
    matched by ``WordMatcher``."""

    def matcher(self, user_input: str, case_sensitive: bool = False) -> Matcher:
        return WordMatcher(user_input, match_style=self.match_style, case_sensitive=case_sensitive)


def algorithm_picks(game: str, choose: Choose) -> list[SimpleCommand]:
    """An entry for each algorithm that plays ``game``."""
    return [SimpleCommand(info.name, partial(choose, info.name), info.description) for info in fitting_algorithms(game)]


def game_picks(choose: Choose) -> list[SimpleCommand]:
    """An entry for each game, explored from its start."""
    return [SimpleCommand(name, partial(choose, name), "from its start position") for name in game_choices()]


def search_commands(
    session: Session, choose_algorithm: Choose, choose_game: Choose, edit: Callable[[str], object]
) -> Iterator[SystemCommand]:
    """The explorer's: each algorithm that plays the game, each game, and each of the algorithm's parameters
    (``edit`` opens the setup form on its field)."""
    for info in fitting_algorithms(session.config.game):
        yield SystemCommand(f"Algorithm: {info.name}", info.description, partial(choose_algorithm, info.name))
    for name in game_choices():
        yield SystemCommand(f"Game: {name}", "explore its start position", partial(choose_game, name))
    for param in session.info.params:
        yield SystemCommand(
            f"Parameter: {param.name}…", f"{param.help} ({param.range_text()})", partial(edit, f"param-{param.name}")
        )


def side_commands(
    game: str, limit: Limit, set_sides: Callable[[Controller, Controller], object], choose_hint: Choose
) -> Iterator[SystemCommand]:
    """The play screen's: against each algorithm that plays ``game`` (first or second; ``limit`` its budget), hints
    from it, and two humans."""
    for info in fitting_algorithms(game):
        agent = Agent(AgentSpec(info.name), limit)
        yield SystemCommand(
            f"Play against {info.name}", f"you move first; {info.description}", partial(set_sides, None, agent)
        )
        yield SystemCommand(
            f"Play second against {info.name}", "the agent moves first", partial(set_sides, agent, None)
        )
        yield SystemCommand(f"Hints from {info.name}", info.description, partial(choose_hint, info.name))
    yield SystemCommand("Two humans", "both sides at the keyboard", partial(set_sides, None, None))
