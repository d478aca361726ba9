"""Match statistics as engine testers compute them: Elo with error bars, LOS, SPRT, rating lists.

Every formula here is fastchess's (``app/src/matchmaking/elo/`` and ``sprt/sprt.cpp`` of
github.com/Disservin/fastchess), so that our figures can be read beside theirs and
cutechess-cli's:

* **Opening pairs.**  Each opening is played twice, colours swapped.  A pair is scored by the
  points the first-named agent took from its two games: 0 (LL), 1/2 (LD), 1 (WL or DD),
  3/2 (WD), 2 (WW): the *pentanomial* counts.  The *trinomial* counts are the games' wins,
  draws and losses.
* **Elo difference** (logistic Elo, what cutechess-cli prints): ``-400 log10(1/s - 1)`` for
  the score ``s`` (points per game).  Its 95% interval is the image of ``s ± 1.96 sigma``,
  ``sigma`` the standard error of ``s``; the error printed is half that interval's width.
  From pentanomial counts ``sigma`` is estimated over pairs (the variance of the pair
  scores 0, 1/4, 1/2, 3/4, 1 divided by the number of pairs), which takes into account
  that the two games of a pair are not independent; from trinomial counts, over games.
  Below ``MIN_INTERVAL_PAIRS`` pairs we give no estimate (fastchess prints one pair's as
  ``0.0 +/- 0.0`` or ``inf +/- nan``): one pair has no spread, and two give it from a single
  difference.
* **LOS**, the likelihood of superiority: ``Phi((s - 1/2) / sigma)``, the probability under
  the same normal approximation that the first agent is the stronger.
* **Normalized Elo** (nElo): ``(s - 1/2) / sqrt(2 var)`` scaled by ``800 / ln 10``, ``var`` the
  variance of one pair's score (of one game's, without the 2, from trinomial counts): an
  Elo difference measured in standard deviations, so that it does not depend on the draw
  ratio.
* **SPRT** (sequential probability ratio test) of H0: ``elo = elo0`` against H1: ``elo =
  elo1``: the generalized log-likelihood ratio of the pentanomial counts (each count 0 taken
  as 0.001), with bounds ``ln(beta / (1 - alpha))`` and ``ln((1 - beta) / alpha)``.  The
  elo bounds are normalized Elo by default (fastchess's ``model=normalized``), or logistic
  Elo (``model=logistic``).  The maximum likelihood distributions under each hypothesis
  are found as fastchess finds them (Van den Bergh's method, ITP root finding, the same
  tolerances), so the LLR agrees with fastchess's to its printed precision.

The rating list (``rating_list``) is a maximum likelihood fit over all the games of many
agents, as Ordo's is: the logistic model, a draw counted as half a win.

``Tally`` keeps an agent's plain counts (and the games stopped by an error, which count for
nobody), with Wilson's score interval (E. B. Wilson, "Probable inference, the law of
succession, and statistical inference", JASA 22, 1927; draws counted as half a win) and its
image in Elo, for ``plyscope tune`` and the evaluation lab's benchmark.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist

from plyscope.engine.errors import UserError
from plyscope.engine.numbers import parse_float, shown

Z95 = NormalDist().inv_cdf(0.975)
"""The normal quantile of a two-sided 95% interval: 1.959963984540054, as fastchess writes it."""
NELO_SCALE = 800 / math.log(10)
"""Normalized Elo per standard deviation of the score: 800 / ln 10."""
ELO_SCALE = math.log(10) / 400
"""The logistic model's slope: a rating difference ``d`` predicts the score ``1 / (1 + exp(-ELO_SCALE d))``."""
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""A pair's score for the first agent, per game, in the order of ``Pentanomial.counts``."""
GAME_SCORES = (0.0, 0.5, 1.0)
"""A game's score for the first agent, in the order loss, draw, win."""
EMPTY_COUNT = 1e-3
"""What a count of 0 is taken to be in the LLR (fastchess's ``regularize``)."""
MIN_INTERVAL_PAIRS = 3
"""The fewest opening pairs from which an Elo difference and its interval are estimated."""


def elo_from_score(score: float) -> float:
    """The logistic Elo difference that predicts ``score`` (0 to 1): -400 log10(1/score - 1), ±inf at 1 and 0."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return 0.0 - 400 * math.log10(1 / score - 1)  # 0.0 - 0.0 is 0.0, not the -0.0 that -400 * 0.0 would be


def score_from_elo(elo: float) -> float:
    """The score (0 to 1) a logistic Elo difference ``elo`` predicts for the stronger side."""
    return 1 / (1 + 10 ** (-elo / 400))


# --- counts --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Trinomial:
    """Games of one agent against another, from the first agent's point of view."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def score(self) -> float | None:
        """Points per game of the first agent (a draw is half a point); ``None`` with no game."""
        return (self.wins + self.draws / 2) / self.games if self.games else None

    def draw_ratio(self) -> float | None:
        """Draws per game; ``None`` with no game."""
        return self.draws / self.games if self.games else None

    def estimate(self) -> EloEstimate | None:
        """The Elo difference and its interval from the games taken one by one (fastchess's ``EloWDL``)."""
        return _estimate((self.losses, self.draws, self.wins), GAME_SCORES, pairs=False)


@dataclass(frozen=True, slots=True)
class Pentanomial:
    """Opening pairs (two games, colours swapped) by the points the first agent took from them."""

    ll: int = 0
    """Pairs lost twice: 0 points."""
    ld: int = 0
    """A loss and a draw: 1/2 point."""
    wl_dd: int = 0
    """A win and a loss, or two draws: 1 point."""
    wd: int = 0
    """A win and a draw: 3/2 points."""
    ww: int = 0
    """Pairs won twice: 2 points."""

    @classmethod
    def of_points(cls, points: Sequence[float]) -> Pentanomial:
        """The counts of pairs whose points for the first agent (0, 0.5, 1, 1.5 or 2) are ``points``."""
        counts = [0] * 5
        for value in points:
            counts[round(2 * value)] += 1
        return cls(*counts)

    def counts(self) -> tuple[int, int, int, int, int]:
        """``(LL, LD, WL+DD, WD, WW)``: fastchess's ``Ptnml(0-2)``."""
        return self.ll, self.ld, self.wl_dd, self.wd, self.ww

    @property
    def pairs(self) -> int:
        return sum(self.counts())

    def estimate(self) -> EloEstimate | None:
        """The Elo difference and its interval from the pairs (fastchess's ``EloPentanomial``); ``None`` with
        fewer than ``MIN_INTERVAL_PAIRS`` pairs."""
        if self.pairs < MIN_INTERVAL_PAIRS:
            return None
        return _estimate(self.counts(), PAIR_SCORES, pairs=True)


@dataclass(frozen=True, slots=True)
class EloEstimate:
    """An Elo difference measured by a match, from the point of view of the first agent."""

    score: float
    """Points per game of the first agent, 0 to 1."""
    elo: float
    """Logistic Elo difference (``elo_from_score(score)``; ±inf at a score of 1 or 0)."""
    error: float
    """Half the width of ``elo``'s 95% interval (inf when the interval reaches a score of 0 or 1; nan when
    ``elo`` is infinite)."""
    nelo: float
    """Normalized Elo difference (±inf, or nan at a score of 1/2, when the scores do not vary)."""
    nelo_error: float
    """Half the width of ``nelo``'s 95% interval."""
    los: float
    """Likelihood of superiority: the probability, 0 to 1, that the first agent is the stronger."""

    def significant(self) -> bool:
        """Whether the 95% interval leaves out 0 (a difference at the 5% level, two-sided): LOS above 97.5%
        or below 2.5%."""
        return not 0.025 <= self.los <= 0.975


def _estimate(counts: Sequence[int], scores: Sequence[float], *, pairs: bool) -> EloEstimate | None:
    """fastchess's ``EloWDL`` (``pairs=False``: counts of games) or ``EloPentanomial`` (counts of pairs)."""
    total = sum(counts)
    if total == 0:
        return None
    shares = [count / total for count in counts]
    score = sum(share * value for share, value in zip(shares, scores, strict=True))
    variance = sum(share * (value - score) ** 2 for share, value in zip(shares, scores, strict=True))
    spread = math.sqrt(variance / total)
    """The standard error of ``score``."""
    low, high = max(0.0, score - Z95 * spread), min(1.0, score + Z95 * spread)
    elo = elo_from_score(score)
    error = math.nan if math.isinf(elo) else (elo_from_score(high) - elo_from_score(low)) / 2
    deviation = math.sqrt((2 if pairs else 1) * variance)
    nelo = _ratio(score - 0.5, deviation) * NELO_SCALE
    nelo_error = _ratio(Z95 * spread, deviation) * NELO_SCALE
    if spread > 0:
        los = (1 - math.erf(-(score - 0.5) / (math.sqrt(2) * spread))) / 2
    else:  # every game (or pair) scored alike: no doubt left, either way
        los = 0.5 if score == 0.5 else float(score > 0.5)
    return EloEstimate(score, elo, error, nelo, nelo_error, los)


def _ratio(numerator: float, denominator: float) -> float:
    """``numerator / denominator``, as IEEE arithmetic has it when ``denominator`` is 0 (±inf, or nan for 0/0)."""
    if denominator:
        return numerator / denominator
    return math.nan if numerator == 0 else math.copysign(math.inf, numerator)


def wilson_interval(score: float, games: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a success rate ``score`` over ``games`` trials."""
    if games <= 0:
        raise ValueError("an interval needs at least one game")
    spread = z * z / games
    centre = (score + spread / 2) / (1 + spread)
    half = z / (1 + spread) * math.sqrt(score * (1 - score) / games + spread / (4 * games))
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True, slots=True)
class Tally:
    """Games of ``agent`` against ``opponent`` (every opponent if empty), from ``agent``'s point of view: the
    ``Trinomial`` counts with the agents' names and the games that count for nobody, with Wilson's score
    interval (draws counted as half a win) and its image in Elo."""

    agent: str
    opponent: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    errors: int = 0
    """Games stopped by an error: counted in no other field."""

    def trinomial(self) -> Trinomial:
        """The games that count: wins, draws and losses."""
        return Trinomial(self.wins, self.draws, self.losses)

    @property
    def games(self) -> int:
        """Games that count: wins, draws and losses."""
        return self.trinomial().games

    def score(self) -> float | None:
        """(wins + draws / 2) / games; ``None`` with no game."""
        return self.trinomial().score()

    def interval(self) -> tuple[float, float] | None:
        """The score's 95% Wilson interval."""
        score = self.score()
        return None if score is None else wilson_interval(score, self.games)

    def elo(self) -> float | None:
        score = self.score()
        return None if score is None else elo_from_score(score)

    def elo_interval(self) -> tuple[float, float] | None:
        interval = self.interval()
        return None if interval is None else (elo_from_score(interval[0]), elo_from_score(interval[1]))

    def as_dict(self) -> dict[str, object]:
        """The tally for JSON: Elo values that are infinite (a score of 0 or 1) are written ``null``."""
        return {
            "agent": self.agent,
            "opponent": self.opponent or None,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "errors": self.errors,
            "score": self.score(),
            "score_95": finite_or_none(self.interval()),
            "elo": finite_or_none(self.elo()),
            "elo_95": finite_or_none(self.elo_interval()),
        }


def finite_or_none(value: float | tuple[float, float] | None) -> object:
    """``value`` for JSON, which has no infinity: a number that is not finite (an Elo at a score of 0 or 1) is
    ``None``, a pair a list."""
    if isinstance(value, tuple):
        return [finite_or_none(v) for v in value]
    return value if value is None or math.isfinite(value) else None


# --- SPRT ----------------------------------------------------------------------------------

SPRT_MODELS = ("normalized", "logistic")
"""The Elo that ``elo0`` and ``elo1`` are measured in; fastchess's default is the first."""
SPRT_KEYS = ("elo0", "elo1", "alpha", "beta", "model")
MAX_SPRT_ELO = {"normalized": 200.0, "logistic": 1000.0}
"""The largest ``|elo0|`` and ``|elo1|`` accepted, by model.  fastchess's normalized maximum likelihood
iteration (started from the uniform distribution) fails from about 245 normalized Elo up (a
normalized score of 1 per pair); logistic Elo 1000 is a score of 0.997."""


@dataclass(frozen=True, slots=True)
class Sprt:
    """A sequential probability ratio test of H0: ``elo = elo0`` against H1: ``elo = elo1``."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    """The probability of accepting H1 when H0 holds."""
    beta: float = 0.05
    """The probability of accepting H0 when H1 holds."""
    model: str = "normalized"
    """``normalized``: ``elo0`` and ``elo1`` are normalized Elo; ``logistic``: logistic Elo."""

    @property
    def lower(self) -> float:
        """The LLR at or below which H0 is accepted: ln(beta / (1 - alpha))."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """The LLR at or above which H1 is accepted: ln((1 - beta) / alpha)."""
        return math.log((1 - self.beta) / self.alpha)

    def text(self) -> str:
        """The test as ``--sprt`` writes it."""
        return f"elo0={self.elo0:g},elo1={self.elo1:g},alpha={self.alpha:g},beta={self.beta:g},model={self.model}"

    def llr(self, pairs: Pentanomial) -> float:
        """The log-likelihood ratio of H1 against H0 given the pentanomial counts ``pairs``."""
        regular = [count or EMPTY_COUNT for count in pairs.counts()]
        total = sum(regular)
        shares = [count / total for count in regular]
        if self.model == "normalized":
            t0, t1 = (math.sqrt(2) * elo / NELO_SCALE for elo in (self.elo0, self.elo1))
            p0, p1 = _mle_normalized(PAIR_SCORES, shares, t0), _mle_normalized(PAIR_SCORES, shares, t1)
        else:
            p0 = _mle_logistic(PAIR_SCORES, shares, score_from_elo(self.elo0))
            p1 = _mle_logistic(PAIR_SCORES, shares, score_from_elo(self.elo1))
        return total * sum(share * (math.log(b) - math.log(a)) for share, a, b in zip(shares, p0, p1, strict=True))

    def decision(self, llr: float) -> str | None:
        """``H1`` or ``H0`` once ``llr`` reaches a bound (fastchess's test), ``None`` while the test goes on."""
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None

    def fraction(self, llr: float) -> float:
        """How far ``llr`` has gone towards the bound on its side: 1 at the bound (fastchess's percentage / 100)."""
        return llr / self.upper if llr >= 0 else llr / self.lower


def parse_sprt(text: str) -> Sprt:
    """The test ``--sprt elo0=0,elo1=10,alpha=0.05,beta=0.05[,model=normalized|logistic]`` names.

    ``elo0`` and ``elo1`` are required; ``alpha`` and ``beta`` default to 0.05, ``model`` to
    ``normalized``.  Raises ``UserError`` (one line) on anything else, as fastchess refuses it.
    """
    values: dict[str, str] = {}
    for item in text.split(","):
        key, equals, value = (part.strip() for part in item.partition("="))
        if not equals:
            raise UserError(
                f"--sprt: '{shown(item.strip())}' is not key=value; write elo0=0,elo1=10,alpha=0.05,beta=0.05"
            )
        if key not in SPRT_KEYS:
            raise UserError(f"--sprt: unknown key '{shown(key)}' (the keys are {', '.join(SPRT_KEYS)})")
        if key in values:
            raise UserError(f"--sprt: {key} is given twice")
        values[key] = value
    for key in ("elo0", "elo1"):
        if key not in values:
            raise UserError(f"--sprt: {key} is missing; write elo0=0,elo1=10,alpha=0.05,beta=0.05")
    model = values.get("model", SPRT_MODELS[0])
    if model not in SPRT_MODELS:
        raise UserError(f"--sprt: model '{shown(model)}' is not one of {', '.join(SPRT_MODELS)}")
    most = MAX_SPRT_ELO[model]
    elo0, elo1 = (parse_float(values[key], f"--sprt {key}", lo=-most, hi=most) for key in ("elo0", "elo1"))
    alpha, beta = (
        parse_float(values.get(key, "0.05"), f"--sprt {key}", above=0.0, hi=1.0) for key in ("alpha", "beta")
    )
    if elo0 >= elo1:
        raise UserError(f"--sprt: elo0 ({elo0:g}) must be less than elo1 ({elo1:g})")
    if alpha + beta >= 1:
        raise UserError(f"--sprt: alpha + beta ({alpha + beta:g}) must be less than 1")
    return Sprt(elo0, elo1, alpha, beta, model)


def _itp(f: Callable[[float], float], a: float, b: float, f_a: float, f_b: float, eps: float) -> float:
    """A root of ``f`` between ``a`` and ``b`` by the ITP method (Oliveira and Takahashi, ACM TOMS 47, 2021),
    step for step as fastchess's ``itp`` (k1 = 0.1, k2 = 2, n0 = 0.99), IEEE infinities and nans included."""
    k_1, k_2, n_0 = 0.1, 2.0, 0.99
    if f_a > 0:
        a, b, f_a, f_b = b, a, f_b, f_a
    n_max = math.ceil(math.log2(abs(b - a) / (2 * eps))) + n_0
    step = 0
    while abs(b - a) > 2 * eps:
        x_half = (a + b) / 2
        r = eps * 2.0 ** (n_max - step) - (b - a) / 2
        delta = k_1 * abs(b - a) ** k_2
        x_f = (f_b * a - f_a * b) / (f_b - f_a)
        offset = x_half - x_f
        sigma = offset / abs(offset) if offset == offset and offset != 0 else math.nan
        x_t = x_f + sigma * delta if delta <= abs(offset) else x_half
        x_itp = x_t if abs(x_t - x_half) <= r else x_half - sigma * r
        f_itp = f(x_itp)
        if f_itp == 0:
            a = b = x_itp
        elif f_itp < 0:
            a, f_a = x_itp, f_itp
        else:
            b, f_b = x_itp, f_itp
        step += 1
    return (a + b) / 2


def _mle_logistic(scores: Sequence[float], shares: Sequence[float], s: float) -> list[float]:
    """The distribution over ``scores`` nearest ``shares`` (maximum likelihood) whose mean is ``s``
    (Van den Bergh, "Comparing the approximations for the generalized log likelihood ratio", Prop. 1.1)."""

    def slope(theta: float) -> float:
        return sum(p * (a - s) / (1 + theta * (a - s)) for a, p in zip(scores, shares, strict=True))

    theta = _itp(slope, -1 / (scores[-1] - s), -1 / (scores[0] - s), math.inf, -math.inf, 1e-3)
    return [p / (1 + theta * (a - s)) for a, p in zip(scores, shares, strict=True)]


def _mle_normalized(scores: Sequence[float], shares: Sequence[float], t_star: float) -> list[float]:
    """The distribution over ``scores`` nearest ``shares`` whose normalized score (mean - 1/2) / deviation is
    ``t_star`` (Van den Bergh, "Comments on normalized Elo", section 4.1), iterated as fastchess does."""
    p = [1 / len(scores)] * len(scores)
    for _ in range(10):
        mu = sum(a * q for a, q in zip(scores, p, strict=True))
        sigma = math.sqrt(sum(q * (a - mu) ** 2 for a, q in zip(scores, p, strict=True)))
        phi = [a - 0.5 - 0.5 * t_star * sigma * (1 + ((a - mu) / sigma) ** 2) for a in scores]

        def slope(theta: float, phi: list[float] = phi) -> float:
            return sum(q * f / (1 + theta * f) for q, f in zip(shares, phi, strict=True))

        theta = _itp(slope, -1 / max(phi), -1 / min(phi), math.inf, -math.inf, 1e-7)
        new = [q / (1 + theta * f) for q, f in zip(shares, phi, strict=True)]
        moved = max(abs(n - o) for n, o in zip(new, p, strict=True))
        p = new
        if moved < 1e-4:
            break
    return p


# --- rating lists --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rating:
    """One agent's line of a rating list."""

    player: str
    rating: float | None
    """Logistic Elo relative to the anchor (or to the mean of the agents rated); ``None`` with no game."""
    error: float | None
    """Half the width of the rating's 95% interval; ``None`` for the anchor (and with no game)."""
    points: float
    """Wins plus half the draws, over every game the agent played."""
    played: int


@dataclass(frozen=True, slots=True)
class RatingList:
    ratings: list[Rating]
    """Best first; agents with no game last."""
    anchor: str | None
    """The agent rated 0 (``None``: the mean of the agents rated is 0)."""
    virtual_draws: bool
    """True when the results alone have no finite maximum (an agent won or lost every game against the
    rest) and one virtual draw between every two agents was added to the fit (not to the points)."""


def rating_list(
    players: Sequence[str], results: Mapping[tuple[str, str], tuple[float, int]], anchor: str | None = None
) -> RatingList:
    """Ratings of ``players`` that make their games most likely: ``results[(a, b)]`` is ``(points of a, games)``
    of ``a`` against ``b`` (each pair of agents once, either way round).

    The model is logistic: a rating difference ``d`` predicts the score ``1 / (1 + 10^(-d/400))``,
    a draw is half a win.  ``anchor`` is rated 0, or else the ratings average 0.  Errors are
    1.96 standard errors from the inverse of the likelihood's curvature (the covariance of
    the ratings given the anchor; with the mean at 0, its pseudo-inverse).
    """
    points = {player: 0.0 for player in players}
    played = dict.fromkeys(players, 0)
    for (a, b), (score, games) in results.items():
        points[a] += score
        points[b] += games - score
        played[a] += games
        played[b] += games
    rated = [player for player in players if played[player]]
    where = {player: index for index, player in enumerate(rated)}
    edges = [(where[a], where[b], score, float(games)) for (a, b), (score, games) in results.items() if games]
    virtual = not _strongly_connected(len(rated), edges)
    if virtual:
        edges += [(i, j, 0.5, 1.0) for i in range(len(rated)) for j in range(i + 1, len(rated))]
    fixed = where.get(anchor) if anchor is not None else None
    values, errors = _fit(len(rated), edges, fixed) if rated else ([], [])
    ratings = [
        Rating(
            player,
            values[where[player]],
            None if where[player] == fixed else errors[where[player]],
            points[player],
            played[player],
        )
        for player in rated
    ]
    ratings.sort(key=lambda rating: -(rating.rating or 0.0))
    ratings += [Rating(player, None, None, 0.0, 0) for player in players if not played[player]]
    return RatingList(ratings, anchor if fixed is not None else None, virtual)


def _strongly_connected(count: int, edges: Sequence[tuple[int, int, float, float]]) -> bool:
    """Whether every agent can be reached from every other by "scored against" steps: the condition for the
    likelihood to have a finite maximum (Zermelo 1929, Ford 1957)."""
    if count <= 1:
        return True
    scored: list[set[int]] = [set() for _ in range(count)]
    for i, j, score, games in edges:
        if score > 0:
            scored[i].add(j)
        if score < games:
            scored[j].add(i)
    backwards: list[set[int]] = [set() for _ in range(count)]
    for i, targets in enumerate(scored):
        for j in targets:
            backwards[j].add(i)
    return all(_reach(links) == count for links in (scored, backwards))


def _reach(links: Sequence[set[int]]) -> int:
    """How many agents can be reached from agent 0 along ``links``."""
    seen = {0}
    todo = [0]
    while todo:
        for other in links[todo.pop()] - seen:
            seen.add(other)
            todo.append(other)
    return len(seen)


def _fit(
    count: int, edges: Sequence[tuple[int, int, float, float]], fixed: int | None
) -> tuple[list[float], list[float]]:
    """Maximum likelihood ratings (Newton's method) and their 95% errors, agent ``fixed`` at 0 or else the mean.

    The ratings are fitted with one agent held at 0 (``fixed``, or the first); their covariance
    is the inverse of the information matrix of the others.  Shifted to average 0, the ratings
    ``P r`` (``P`` centres a vector) have the covariance ``P C P``.
    """
    values = [0.0] * count
    held = 0 if fixed is None else fixed
    free = [index for index in range(count) if index != held]
    for _ in range(MAX_NEWTON_STEPS):
        gradient, information = _derivatives(count, edges, values)
        step = _solve([[information[i][j] for j in free] for i in free], [gradient[i] for i in free])
        largest = max((abs(x) for x in step), default=0.0)
        scale = min(1.0, MAX_NEWTON_STEP / largest) if largest else 1.0
        for index, change in zip(free, step, strict=True):
            values[index] += scale * change
        if largest < 1e-9:
            break
    _, information = _derivatives(count, edges, values)
    inverse = _inverse([[information[i][j] for j in free] for i in free])
    covariance = [[0.0] * count for _ in range(count)]
    for a, i in enumerate(free):
        for b, j in enumerate(free):
            covariance[i][j] = inverse[a][b]
    if fixed is None:
        mean = sum(values) / count
        values = [value - mean for value in values]
        rows = [sum(row) / count for row in covariance]
        total = sum(rows) / count
        variances = [covariance[i][i] - 2 * rows[i] + total for i in range(count)]
    else:
        variances = [covariance[i][i] for i in range(count)]
    return values, [Z95 * math.sqrt(max(variance, 0.0)) for variance in variances]


MAX_NEWTON_STEPS = 100
MAX_NEWTON_STEP = 400.0
"""The largest change of one rating in one Newton step (Elo), so that a first step from 0 cannot overshoot."""


def _derivatives(
    count: int, edges: Sequence[tuple[int, int, float, float]], values: Sequence[float]
) -> tuple[list[float], list[list[float]]]:
    """The log-likelihood's gradient and its information matrix (minus its second derivatives) at ``values``."""
    gradient = [0.0] * count
    information = [[0.0] * count for _ in range(count)]
    for i, j, score, games in edges:
        expected = 1 / (1 + math.exp(-ELO_SCALE * (values[i] - values[j])))
        pull = ELO_SCALE * (score - games * expected)
        weight = games * ELO_SCALE**2 * expected * (1 - expected)
        gradient[i] += pull
        gradient[j] -= pull
        information[i][i] += weight
        information[j][j] += weight
        information[i][j] -= weight
        information[j][i] -= weight
    return gradient, information


def _solve(matrix: Sequence[Sequence[float]], vector: Sequence[float]) -> list[float]:
    """``x`` with ``matrix x = vector``, ``matrix`` symmetric positive definite (Gauss-Jordan elimination)."""
    augmented = [[*row, value] for row, value in zip(matrix, vector, strict=True)]
    return [row[-1] for row in _eliminate(augmented)]


def _inverse(matrix: Sequence[Sequence[float]]) -> list[list[float]]:
    """The inverse of a symmetric positive definite ``matrix``."""
    size = len(matrix)
    augmented = [[*row, *(float(i == j) for j in range(size))] for i, row in enumerate(matrix)]
    return [row[size:] for row in _eliminate(augmented)]


def _eliminate(rows: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan elimination with partial pivoting of the augmented ``rows``: the left block becomes 1."""
    size = len(rows)
    for column in range(size):
        pivot = max(range(column, size), key=lambda row: abs(rows[row][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        lead = rows[column][column]
        rows[column] = [value / lead for value in rows[column]]
        for row in range(size):
            if row != column and rows[row][column]:
                factor = rows[row][column]
                rows[row] = [value - factor * base for value, base in zip(rows[row], rows[column], strict=True)]
    return rows
