"""The statistics of a run's games: per pairing, per opening pair, the SPRT, the rating list.

They are ``plyscope.engine.stats``'s, fastchess's formulas: the Elo difference and its interval from the
opening pairs (pentanomial), the SPRT after every pair in schedule order, a maximum likelihood
rating list over many agents; ``plyscope.engine.stats.Tally`` keeps plain counts.  Every figure is from
the point of view of the agent named first in a pairing; a game stopped by an error counts for
nobody.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from plyscope.engine.arena.accuracy import AccuracyTally
from plyscope.engine.arena.records import GameRecord
from plyscope.engine.arena.schedule import pairings
from plyscope.engine.stats import EloEstimate, Pentanomial, RatingList, Sprt, Tally, finite_or_none, rating_list


def outcome(record: GameRecord, agent: str) -> str:
    """What ``record`` (a game ``agent`` played) was for ``agent``: ``win``, ``draw``, ``loss`` or ``error``."""
    if record.result in ("error", "draw"):
        return record.result
    return "win" if record.winner() == agent else "loss"


def tally(records: Sequence[GameRecord], agent: str, opponent: str = "", group: str | None = None) -> Tally:
    """``agent``'s games against ``opponent`` (every opponent if empty), in ``group`` (any if ``None``)."""
    counts = {"win": 0, "draw": 0, "loss": 0, "error": 0}
    for record in records:
        if group is not None and record.group != group:
            continue
        if agent == record.first:
            other = record.second
        elif agent == record.second:
            other = record.first
        else:
            continue
        if opponent and other != opponent:
            continue
        counts[outcome(record, agent)] += 1
    return Tally(agent, opponent, counts["win"], counts["draw"], counts["loss"], counts["error"])


def accuracy(records: Sequence[GameRecord], agent: str, group: str | None = None) -> AccuracyTally:
    """``agent``'s moves against perfect play over its games in ``group`` (any if ``None``)."""
    summed = AccuracyTally()
    for record in records:
        if group is None or record.group == group:
            _add_accuracy(summed, record, agent)
    return summed


def _add_accuracy(summed: AccuracyTally, record: GameRecord, agent: str) -> None:
    """Add ``agent``'s moves in ``record`` (none if it did not play there) to ``summed``."""
    for name, stats in ((record.first, record.first_stats), (record.second, record.second_stats)):
        if name == agent:
            summed.add(stats.turns, stats.judged, stats.kept, stats.loss)


def opening_pairs(records: Sequence[GameRecord]) -> Iterator[tuple[GameRecord, GameRecord]]:
    """The opening pairs of which both games are among ``records``: games ``2k`` and ``2k + 1`` of a schedule
    (the same opening, colours swapped), in schedule order."""
    by_index = {record.index: record for record in records}
    for index in sorted(by_index):
        other = by_index.get(index + 1)
        if index % 2 == 0 and other is not None:
            yield by_index[index], other


def pair_points(pair: tuple[GameRecord, GameRecord], agent: str) -> float | None:
    """The points ``agent`` took from an opening pair (0, 0.5, 1, 1.5 or 2); ``None`` if a game stopped by an
    error or ``agent`` did not play both games."""
    points = 0.0
    for record in pair:
        if record.result == "error" or agent not in (record.first, record.second):
            return None
        points += 0.5 if record.result == "draw" else float(record.winner() == agent)
    return points


def pentanomial(records: Sequence[GameRecord], agent: str, opponent: str, group: str | None = None) -> Pentanomial:
    """The opening pairs of ``agent`` against ``opponent`` in ``group`` (any if ``None``), from ``agent``'s
    point of view; a pair with a game stopped by an error is left out."""
    points = []
    for pair in opening_pairs(records):
        first = pair[0]
        if (group is not None and first.group != group) or {first.first, first.second} != {agent, opponent}:
            continue
        taken = pair_points(pair, agent)
        if taken is not None:
            points.append(taken)
    return Pentanomial.of_points(points)


@dataclass(frozen=True, slots=True)
class PairingStats:
    """One pairing's games and opening pairs, from the point of view of ``games.agent``."""

    games: Tally
    pairs: Pentanomial

    def estimate(self) -> EloEstimate | None:
        """The Elo difference from the pairs (``None`` with fewer than ``plyscope.engine.stats.MIN_INTERVAL_PAIRS``)."""
        return self.pairs.estimate()

    def as_dict(self) -> dict[str, object]:
        """For JSON: numbers that are not finite (an Elo at a score of 0 or 1) are written ``null``."""
        games = self.games
        estimate = self.estimate()
        return {
            "agent": games.agent,
            "opponent": games.opponent,
            "games": games.games,
            "wins": games.wins,
            "draws": games.draws,
            "losses": games.losses,
            "errors": games.errors,
            "score": games.score(),
            "draw_ratio": games.trinomial().draw_ratio(),
            "pairs": self.pairs.pairs,
            "pentanomial": list(self.pairs.counts()),
            **{
                key: None if estimate is None else finite_or_none(getattr(estimate, key))
                for key in ("elo", "error", "los", "nelo", "nelo_error")
            },
        }


def pairing_stats(records: Sequence[GameRecord], agent: str, opponent: str, group: str | None = None) -> PairingStats:
    return PairingStats(tally(records, agent, opponent, group), pentanomial(records, agent, opponent, group))


class SprtWatch:
    """The SPRT of a head-to-head, evaluated after every opening pair **in schedule order**.

    Games may finish in any order (several workers); pair ``k`` is evaluated once it and every
    pair before it are finished, so the pair at which a bound is crossed, and with it the
    match's result, is the same however the games were spread, interrupted and resumed.
    """

    def __init__(self, sprt: Sprt, agent: str) -> None:
        self.sprt = sprt
        self.agent = agent
        """The agent whose Elo the test is about (the first named)."""
        self.pairs = Pentanomial()
        """The opening pairs evaluated so far (left out: pairs with a game stopped by an error)."""
        self.evaluated = 0
        """Opening pairs of the schedule evaluated so far, in order."""
        self.llr = 0.0
        self.decision: str | None = None
        """``H1`` or ``H0`` once a bound is crossed; the match then ends after pair ``evaluated - 1``."""
        self._finished: dict[int, GameRecord] = {}

    def add(self, record: GameRecord) -> None:
        """Take a finished game; evaluate the pairs it completes in order, until a bound is crossed."""
        self._finished[record.index] = record
        finished = self._finished
        while self.decision is None and 2 * self.evaluated in finished and 2 * self.evaluated + 1 in finished:
            points = pair_points((finished[2 * self.evaluated], finished[2 * self.evaluated + 1]), self.agent)
            self.evaluated += 1
            if points is not None:
                counts = list(self.pairs.counts())
                counts[round(2 * points)] += 1
                self.pairs = Pentanomial(*counts)
                self.llr = self.sprt.llr(self.pairs)
                self.decision = self.sprt.decision(self.llr)

    def kept(self, records: Sequence[GameRecord]) -> list[GameRecord]:
        """``records`` less the games after the pair that decided the test (all of them while it goes on)."""
        if self.decision is None:
            return list(records)
        return [record for record in records if record.index < 2 * self.evaluated]


def sprt_summary(sprt: Sprt, pairs: Pentanomial) -> dict[str, object]:
    """The test, its bounds, the LLR of ``pairs`` and its decision (``null`` while undecided), for JSON."""
    llr = sprt.llr(pairs)
    return {
        "elo0": sprt.elo0,
        "elo1": sprt.elo1,
        "alpha": sprt.alpha,
        "beta": sprt.beta,
        "model": sprt.model,
        "lower": sprt.lower,
        "upper": sprt.upper,
        "llr": llr,
        "result": sprt.decision(llr),
        "pairs": pairs.pairs,
    }


def ratings(
    records: Sequence[GameRecord], names: Sequence[str], meetings: Sequence[tuple[int, int]], anchor: str | None = None
) -> RatingList:
    """The maximum likelihood rating list of ``names`` over every game of ``records`` (``meetings``: the pairs
    of agents, by index, that played each other)."""
    return _rating_list(names, [tally(records, names[i], names[j]) for i, j in meetings], anchor)


def _rating_list(names: Sequence[str], tallies: Sequence[Tally], anchor: str | None) -> RatingList:
    """The rating list of ``names`` from the tallies of the pairings that met."""
    return rating_list(names, {(t.agent, t.opponent): (t.wins + t.draws / 2, t.games) for t in tallies}, anchor)


def ratings_summary(listed: RatingList, accuracy: Mapping[str, AccuracyTally]) -> dict[str, object]:
    """The rating list for JSON, each player with the share of its judged moves that keep the value and its mean
    loss (``plyscope.engine.arena.accuracy``)."""
    return {
        "anchor": listed.anchor,
        "virtual_draws": listed.virtual_draws,
        "list": [
            {
                "player": r.player,
                "rating": r.rating,
                "error": r.error,
                "points": r.points,
                "played": r.played,
                "kept_share": accuracy[r.player].kept_share,
                "mean_loss": accuracy[r.player].mean_loss,
            }
            for r in listed.ratings
        ],
    }


def summary(
    records: Sequence[GameRecord],
    names: Sequence[str],
    *,
    gauntlet: bool = False,
    sprt: Sprt | None = None,
    anchor: str | None = None,
) -> dict[str, object]:
    """For JSON: every pairing's statistics; the SPRT (a head-to-head with ``sprt``); the rating list (three
    agents or more)."""
    running = RunningSummary(names, gauntlet=gauntlet, sprt=sprt, anchor=anchor)
    for record in records:
        running.add(record)
    return running.document()


OUTCOMES = ("win", "draw", "loss", "error")
"""What a game was for an agent (``outcome``), in the order of ``Tally``'s counts."""


class RunningSummary:
    """A run's ``summary`` kept up to date one game at a time (``add``): per pairing, its first-named agent's
    wins, draws, losses and errors, and its opening pairs' counts (a pair once both its games are in), so
    that the summary after a game costs the same whatever the number of games before it."""

    def __init__(
        self, names: Sequence[str], *, gauntlet: bool = False, sprt: Sprt | None = None, anchor: str | None = None
    ) -> None:
        self.names = list(names)
        self.sprt = sprt
        self.anchor = anchor
        self.meetings = pairings(len(names), gauntlet)
        self._meeting = {frozenset((self.names[i], self.names[j])): k for k, (i, j) in enumerate(self.meetings)}
        """Each pairing's place in ``meetings``, by its two agents' names."""
        self._games = [[0] * len(OUTCOMES) for _ in self.meetings]
        """Per pairing, the first-named agent's games by ``OUTCOMES``."""
        self._pairs = [[0] * 5 for _ in self.meetings]
        """Per pairing, its opening pairs by the first-named agent's points (``Pentanomial.counts``)."""
        self._waiting: dict[int, GameRecord] = {}
        """Games whose opening pair's other game is not in yet, by index."""
        self._accuracy = {name: AccuracyTally() for name in self.names}
        """Each agent's moves against perfect play."""

    def add(self, record: GameRecord) -> None:
        """Count the finished game ``record`` (each game once)."""
        for name, summed in self._accuracy.items():
            _add_accuracy(summed, record, name)
        meeting = self._meeting.get(frozenset((record.first, record.second)))
        if meeting is not None:
            agent = self.names[self.meetings[meeting][0]]
            self._games[meeting][OUTCOMES.index(outcome(record, agent))] += 1
        other = self._waiting.pop(record.index ^ 1, None)  # games 2k and 2k + 1 are a pair
        if other is None:
            self._waiting[record.index] = record
            return
        pair = (other, record) if other.index < record.index else (record, other)
        meeting = self._meeting.get(frozenset((pair[0].first, pair[0].second)))
        if meeting is None:
            return
        points = pair_points(pair, self.names[self.meetings[meeting][0]])
        if points is not None:
            self._pairs[meeting][round(2 * points)] += 1

    def document(self) -> dict[str, object]:
        """The ``summary`` of the games added."""
        names = self.names
        stats = [
            PairingStats(Tally(names[i], names[j], *self._games[k]), Pentanomial(*self._pairs[k]))
            for k, (i, j) in enumerate(self.meetings)
        ]
        document: dict[str, object] = {
            "pairings": [s.as_dict() for s in stats],
            "accuracy": [{"agent": name, **summed.as_dict()} for name, summed in self._accuracy.items()],
        }
        if self.sprt is not None:
            document["sprt"] = sprt_summary(self.sprt, stats[0].pairs)
        if len(names) > 2:
            listed = _rating_list(names, [s.games for s in stats], self.anchor)
            document["ratings"] = ratings_summary(listed, self._accuracy)
        return document
