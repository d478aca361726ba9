"""One search shown live: a head line (best move, root value), its tree and its stats.

The explorer, the play screen and every pane of the compare screen show searches through
this one widget: ``show`` a session, ``apply`` each batch of steps its search thread
delivers (``SearchScreen`` routes them), and the figures follow.

With the truth column on (``show_truth``), a thread worker finds the exact value of every node
the tree shows that has none yet, through the app's one door to exact values (``PlyscopeApp.exact``,
a ``plyscope.engine.exact.Exact``: the games' solvers and one bounded cache, shared by every pane):
a quick look at each, the deepest first, then the rest solved, the shallowest first; it hands them
to the tree every 50 ms or so.  The positions are read under the session's lock before it starts:
it takes no lock, so a running search never holds it up.  A pane also starts loading the solver
soon after it shows a search (``LOAD_AHEAD_SECONDS``), so that the column's first values come at
once.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static
from textual.worker import get_current_worker

from plyscope.engine.errors import UserError
from plyscope.engine.exact import Exact
from plyscope.engine.games import CHANCE, Move, Player, State
from plyscope.engine.kits import kit_of
from plyscope.engine.kits.base import ExactValues, Truth
from plyscope.engine.search.base import Node, Phase, Searcher
from plyscope.engine.truth import Judgement, WorkShares, work_shares
from plyscope.tui.formatting import format_number, format_value, player_glyph, truth_words, verdict_words
from plyscope.tui.session import Batch, RateMeter, Session, ValueHistory
from plyscope.tui.widgets.reading_guide import phase_words
from plyscope.tui.widgets.search_tree import FOOLED_MARK, SearchTree
from plyscope.tui.widgets.stats import Figures, StatsPanel
from plyscope.tui.widgets.timeline_bar import TimelineBar

SHORT_PANE = 22
"""Rows below which a pane leaves out the root value's sparkline, so that its tree keeps some room."""
TREE_LINES = 4
"""The fewest lines a pane's tree is left: where the stats panel would leave fewer, it is left out (at 60 x 18 the
explorer's tree gets 7; the status line still says the moves spent)."""
TRUTH_SECONDS = 0.05
"""How often the truth worker hands what it found to the tree."""


TRUTHS_KEPT = 10_000
"""Values a pane keeps by node before it forgets those of nodes neither shown nor children of its principal line."""
LOAD_AHEAD_SECONDS = 0.5
"""How long after a pane shows a search its truth column's solver starts loading, unless loaded (``Exact.prepare``:
most of a second of one core and some 40 MB of the process's own memory, Connect Four only), so that the column's first
values come at once (``Exact.load_ahead`` off: only when asked)."""
SHARES_SECONDS = 0.5
"""How often, at most, the work below the root moves is counted again (it walks the whole tree)."""


@dataclass(frozen=True, slots=True)
class RootMove:
    """A legal move at the root, generated or not, whose value the worker finds (to judge the best move)."""

    move: Move


Valued = Node | RootMove
"""What the truth worker values: a node of the tree, or a root move."""
Found = tuple[Valued, Truth, str]
"""A node or root move, its position's exact value (for the player to move there), and that value in words."""


def judged(
    node: Node, chosen: Node | None, known: dict[Valued, tuple[Truth, str]], chooser: Player, values: ExactValues
) -> Judgement:
    """The choice of ``chosen`` among ``node``'s children by ``chooser`` (the player to move at ``node``), from the
    values ``known``, by ``values``' outcomes."""
    truths = [known[child][0] if child in known else None for child in node.children]
    index = None if chosen is None else node.children.index(chosen)
    return Judgement.of(truths, chooser, index, values)


def app_exact(widget: Widget) -> Exact:
    """The app's one door to exact values (``PlyscopeApp.exact``)."""
    exact = getattr(widget.app, "exact", None)
    assert isinstance(exact, Exact), "a search pane's app has its door to exact values (PlyscopeApp.exact)"
    return exact


def depth(node: Valued) -> int:
    """Plies below the root (a root move's: one)."""
    return 1 if isinstance(node, RootMove) else node.depth


def share_cells(shares: WorkShares) -> tuple[tuple[str, str], ...]:
    """The stats panel's figures on the root moves: ``optimal`` (the best move's, and how many are) and the share of
    the work below root moves that lose, for the player to move at the root (``?`` while some of the work is below a
    root move not settled, ``–`` before any work)."""
    judgement = shares.judgement
    said = {True: "yes", False: "no ✗", None: "?"}[judgement.optimal]
    count = judgement.optimal_moves
    optimal = f"{said}, {count} of {len(judgement.outcomes)}" if count is not None else said
    losing = shares.losing_share
    if losing is not None:
        return (("optimal", optimal), ("losing work", f"{losing:.0%} {shares.unit}"))
    return (("optimal", optimal), ("losing work", "?" if shares.total else "–"))


def judgement_text(judgement: Judgement) -> Text:
    """The head line's word on the best move: ``✓ optimal (3 of 7 moves are)``, ``✗ not optimal (…)``, or how many
    root moves are settled so far."""
    moves = len(judgement.outcomes)
    optimal, count = judgement.optimal, judgement.optimal_moves
    of = (
        f"{count} of {moves} moves are"
        if count is not None
        else f"{moves - judgement.outcomes.count(None)} of {moves} settled"
    )
    if optimal is True:
        return Text(f"✓ optimal ({of})", "bold")
    if optimal is False:
        return Text(f"{FOOLED_MARK.strip()} not optimal ({of})", "bold reverse")
    return Text(f"optimal? ({of})")


def best_text(searcher: Searcher[Node]) -> Text:
    """``best ● 4`` (the move the search would play, with its mover's glyph), ``best –`` before it has one."""
    best = searcher.best_move()
    text = Text("best ")
    if best is None:
        text.append("–")
    else:
        state = searcher.root_state
        text.append(f"{player_glyph(state.player)} {state.move_label(best)}", "bold")
    return text


def value_text(searcher: Searcher[Node]) -> Text:
    """One thing about the root value: the proven result in words, or the value for the first player, signed."""
    verdict = searcher.proven()
    value = searcher.value().first()
    game = searcher.root_state.game
    if verdict is not None and kit_of(game).ranking(game) is not None:  # leaves are values, not results
        return Text(f"value {format_value(value)} (MAX), its sign proven", "bold")
    if verdict is not None:
        return Text(f"{verdict_words(*verdict)}, proven", "bold")
    bounds = searcher.value_bounds()
    if bounds is not None:
        lowest, highest = bounds.first()
        return Text(f"value {format_value(lowest)}..{format_value(highest)} (first player)")
    scale = positive_scale(searcher)
    if scale is not None:
        return Text(
            f"value {format_number(value)} of {format_number(scale[0])}..{format_number(scale[1])} (first player)"
        )
    return Text(f"value {format_value(value)} (first player)")


def positive_scale(searcher: Searcher[Node]) -> tuple[float, float] | None:
    """The range of the searcher's values when they are all positive (Rivest's 1..1023, even at 512), so that a
    sign would mislead; ``None`` on a scale whose 0 is even (the value is then shown signed)."""
    evaluator = searcher.evaluator
    return (evaluator.lo, evaluator.hi) if evaluator is not None and evaluator.lo > 0 else None


def shown_line(searcher: Searcher[Node]) -> list[Node]:
    """The principal variation's nodes in the tree shown (the root's): as far as that tree holds its moves.

    For most searchers that is ``principal_path()``; alpha-beta shows the iteration under way while its
    line is the last complete iteration's, so its line is found there move by move.
    """
    return searcher.nodes_along(searcher.principal_variation())


class SearchPane(Vertical):
    """A session's search: head line, tree and stats, repainted from the batches of its search thread."""

    DEFAULT_CSS = """
    SearchPane { border: round $primary 50%; border-title-color: $text; height: 1fr; }
    SearchPane:focus-within { border: heavy $accent; }
    SearchPane > #head { height: auto; padding: 0 1; background: $boost; }
    SearchPane > SearchTree { height: 1fr; border-top: solid $primary 30%; border-title-color: $text-muted; }
    SearchPane > #empty { height: 1fr; padding: 1 1; color: $text-muted; display: none; }
    SearchPane.-empty > #empty { display: block; }
    SearchPane.-empty > SearchTree, SearchPane.-empty > StatsPanel, SearchPane.-empty > #head { display: none; }
    SearchPane > StatsPanel { height: auto; padding: 0 1; border-top: solid $primary 30%; }
    SearchPane > TimelineBar { background: $boost; }
    SearchPane > #phase { height: auto; padding: 0 1; border-top: solid $primary 30%; display: none; }
    SearchPane.-phases > #phase { display: block; }
    SearchPane.-empty > TimelineBar { display: none; }
    SearchPane.-short StatsPanel > #value-label, SearchPane.-short StatsPanel > Sparkline { display: none; }
    SearchPane.-cramped > StatsPanel { display: none; }
    """

    def __init__(
        self,
        *,
        placeholder: str = "",
        clock: Callable[[], float] = time.perf_counter,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        """``placeholder``: what the pane says while it shows no search; ``clock`` measures steps per second."""
        super().__init__(id=id, classes=classes)
        self.placeholder = placeholder
        self.session: Session | None = None
        """The search shown here (``None``: none)."""
        self.rate = RateMeter(clock)
        self._truth_run = 0
        """Counts the truth workers started: what an older one finds is dropped."""
        self._truth_busy = False
        """Whether a truth worker is finding values now (a new one waits for it to end)."""
        self._truths: dict[Valued, tuple[Truth, str]] = {}
        """The values found of the nodes of the search shown (and their words): the lines shown, and the children of
        the principal variation's nodes (at most ``TRUTHS_KEPT`` beyond those)."""
        self.root_judgement: Judgement | None = None
        """The searcher's best move against perfect play, among the root's legal moves (``None``: the column is off)."""
        self.work_shares: WorkShares | None = None
        """Where the search's work went, by the root moves' values (``None``: the column is off)."""
        self._shares_counted = -SHARES_SECONDS
        """When ``work_shares`` was last counted (``time.perf_counter``)."""
        self.losing_history = ValueHistory()
        """The share of the work below root moves that lose, each time ``work_shares`` was counted for the search
        shown: the sparkline's line while the truth column is on."""
        self._room_to_make = False
        """Whether the pane was resized and has yet to see whether its tree has room for the stats panel."""
        self.phase: Phase[Node] | None = None
        """In phase mode, the phase shown last (``None``: a whole step); with the class ``-phases`` (compare), its
        sentence is shown under the tree."""

    class TruthsFound(Message):
        """A truth worker's values for some nodes (and their ``truth_words``), for the run ``run`` of its pane."""

        def __init__(self, run: int, found: Sequence[Found], done: bool) -> None:
            super().__init__()
            self.run = run
            self.found = found
            self.done = done

    def compose(self) -> ComposeResult:
        yield Static(id="head")
        yield SearchTree()
        yield TimelineBar()
        yield Static(id="phase")
        yield StatsPanel()
        yield Static(self.placeholder, id="empty")

    def on_mount(self) -> None:
        self.set_class(self.session is None, "-empty")
        self.screen.screen_layout_refresh_signal.subscribe(self, self._make_room, immediate=True)

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.height < SHORT_PANE, "-short")
        self.remove_class("-cramped")
        self._room_to_make = True
        self.refresh(layout=True)

    def _make_room(self, _: object) -> None:
        """After a resize, leave the stats panel out if it leaves the tree fewer than ``TREE_LINES`` lines (a small
        terminal), measured in the first layout made since that shows the stats panel as its classes say (the parts
        a class hides or shows ask for a layout of their own: one made before them measured the tree with the root
        value's sparkline a short pane hides, and the stats were lost)."""
        trees = list(self.query(SearchTree).results(SearchTree))
        panels = list(self.query(StatsPanel).results(StatsPanel))
        if not (self._room_to_make and trees and panels):  # (none once the pane is being taken down)
            return
        tree, stats = trees[0], panels[0]
        if tree.display and stats.content_size.height != sum(
            part.outer_size.height for part in stats.children if part.display
        ):
            return
        self._room_to_make = False
        if tree.display and tree.content_size.height < TREE_LINES:
            self.add_class("-cramped")

    @property
    def search_tree(self) -> SearchTree:
        return self.query_one(SearchTree)

    def show(self, session: Session | None, placeholder: str | None = None) -> None:
        """Show ``session``'s search from now on (``None``: none, with ``placeholder`` if given)."""
        self.session = session
        self.rate.clear()
        self.show_phase(None)
        if placeholder is not None:
            self.placeholder = placeholder
            self.query_one("#empty", Static).update(placeholder)
        self.set_class(session is None, "-empty")
        if session is None:
            self.search_tree.show_searcher(None)
            return
        with session.lock:
            last = session.timeline.marked(session.searcher)
        self.search_tree.show_searcher(session.searcher, session.lock, last)
        exact = app_exact(self)
        game = session.searcher.root_state.game
        if exact.load_ahead:
            self.set_timer(LOAD_AHEAD_SECONDS, lambda: exact.prepare(game) and None)
        self._stop_truths()
        self._truths = {}
        self.losing_history = ValueHistory()
        self.judge()
        if exact.refusal(game) is not None:
            self.search_tree.truth = False
        self.find_truths()

    def apply(self, batch: Batch) -> None:
        """Show what ``batch`` (of this pane's session) changed."""
        session = self.session
        if session is None:
            return
        if batch.rebuilt:
            self.show(session)
            self.reveal_step()
        self.show_phase(batch.phase)
        if batch.rebuilt and batch.phase is None:
            return
        with session.lock:
            self.search_tree.apply(batch, shown_line(session.searcher))
        self.rate.add(session.searcher.stats.iterations)
        if self.search_tree.truth:
            self.judge()  # the principal variation may have moved
        else:
            self.refresh_figures()
        self.find_truths()  # (judged again if the search has proven values of its own)

    def show_phase(self, phase: Phase[Node] | None) -> None:
        """Note ``phase`` as the one shown (phase mode; ``None``: a whole step), its sentence under the tree (shown with
        the class ``-phases``)."""
        if phase is self.phase:
            return
        self.phase = phase
        self.query_one("#phase", Static).update(Text() if phase is None else phase_words(phase))  # (lays out the pane)

    def show_truth(self, on: bool) -> str:
        """Show or hide the truth column; what to say when it stays off (a game with no exact values; ``""``: none)."""
        session = self.session
        reason = None if session is None else app_exact(self).refusal(session.searcher.root_state.game)
        if on and reason is not None:
            on = False
        self.search_tree.truth = on
        if on:
            self.call_after_refresh(self.find_truths)  # (the column drawn first, its worker not in the way)
        else:
            self._stop_truths()
        self.judge()
        return reason or ""

    def truth_note(self) -> str:
        """How the truth column's values are found, for what ``T`` says (``Exact.note``: Connect Four's opening
        book, or why there is none); ``""``: nothing to add."""
        session = self.session
        return "" if session is None else app_exact(self).note(session.searcher.root_state.game)

    def find_truths(self) -> None:
        """Take the values the search has proven itself (``_take_proofs``), then start a worker on the nodes without an
        exact value yet (after the one under way, if any): the lines shown, and every child of the principal
        variation's nodes (to judge the searcher's choice there)."""
        session = self.session
        trees = list(self.query(SearchTree).results(SearchTree))  # none once the pane's screen has gone
        if session is None or not trees or not trees[0].truth:
            return
        tree = trees[0]
        known = self._truths
        with session.lock:  # (the worker does not take it: a running search would keep it from the lock)
            proven = self._take_proofs(session.searcher, tree)
            tree.set_truths([(node, known[node][1]) for node in tree.awaiting_truth() if node in known])
        if proven:
            self.judge()
        if self._truth_busy:
            return
        known = self._truths  # (judging may have left out values of nodes no longer shown)
        with session.lock:
            searcher = session.searcher
            choices = [child for node in shown_line(searcher) for child in node.children if child not in known]
            roots = [RootMove(move) for move in searcher.root_state.legal_moves() if RootMove(move) not in known]
            nodes = sorted(dict.fromkeys([*tree.awaiting_truth(), *choices]), key=depth)
            waiting: list[tuple[Valued, State]] = [(node, searcher.state_at(node)) for node in nodes]
            waiting += [(root, searcher.root_state.play(root.move)) for root in roots]  # (mostly children's, cached)
        if not waiting:
            return
        self._truth_busy = True
        run = self._truth_run
        self.run_worker(partial(self._value, waiting, run), thread=True, group="truth", name="truth")

    def _take_proofs(self, searcher: Searcher[Node], tree: SearchTree) -> bool:
        """Settle with the search's own proofs (``Searcher.proof``: exact values it has found) the nodes the column
        values that are not settled yet: the lines shown, the children of the principal variation's nodes and the root
        moves (by their nodes); whether it settled any.  Called under the session's lock."""
        if type(searcher).proof is Searcher.proof:  # (it proves nothing)
            return False
        known = self._truths
        exact = app_exact(self)
        root_moves = {child: RootMove(child.move) for child in searcher.root.children}
        choices = [child for node in shown_line(searcher) for child in node.children]
        candidates = dict.fromkeys([*tree.shown(), *choices, *root_moves])
        found: list[tuple[Node, str]] = []
        for node in candidates:
            held = known.get(node)
            if held is not None and held[0].settled:
                continue
            proof = searcher.proof(node)
            if proof is None:
                continue
            state = searcher.state_at(node)
            truth = exact.proven(proof, state)
            if truth is None:
                continue
            words = truth_words(truth, state, exact)
            known[node] = (truth, words)
            if node in root_moves:
                known[root_moves[node]] = (truth, words)
            found.append((node, words))
        if found:
            tree.set_truths(found)
            self._shares_counted = -SHARES_SECONDS
        return bool(found)

    def _value(self, waiting: Sequence[tuple[Valued, State]], run: int) -> None:
        """The truth worker (in a thread of its own): values the positions ``waiting``, handing what it finds to the
        pane every ``TRUTH_SECONDS`` (messages of the pane's truth run ``run``).  A quick look at each first, the
        deepest first, so that what settles at once shows while the rest are solved, in the order given."""
        worker = get_current_worker()
        exact = app_exact(self)
        found: list[Found] = []
        handed = time.perf_counter()

        def hand(node: Valued, state: State, truth: Truth) -> None:
            nonlocal found, handed
            found.append((node, truth, truth_words(truth, state, exact)))
            if time.perf_counter() - handed >= TRUTH_SECONDS:
                self.post_message(self.TruthsFound(run, found, False))
                found, handed = [], time.perf_counter()

        settled: set[Valued] = set()
        for node, state in sorted(waiting, key=lambda item: depth(item[0]), reverse=True):  # the likeliest to settle
            if worker.is_cancelled:
                return
            truth = exact.quick(state)
            if truth is not None:
                hand(node, state, truth)
                settled.add(node)
        if found:  # (shown now: the first solve may wait for the solver to load)
            self.post_message(self.TruthsFound(run, found, False))
            found, handed = [], time.perf_counter()
        for node, state in waiting:
            if worker.is_cancelled:
                return
            if node not in settled:
                hand(node, state, exact.truth(state))
        self.post_message(self.TruthsFound(run, found, True))

    def on_tree_node_expanded(self) -> None:
        """A branch opened (by the user, or along a line): its lines need their values too."""
        self.call_after_refresh(self.find_truths)

    def _stop_truths(self) -> None:
        self.workers.cancel_group(self, "truth")
        self._truth_run += 1
        self._truth_busy = False

    def on_search_pane_truths_found(self, message: TruthsFound) -> None:
        message.stop()
        if message.run != self._truth_run:
            return
        kept = []
        for node, truth, words in message.found:
            held = self._truths.get(node)
            if held is None or not held[0].settled:  # (a value the search proved meanwhile is not undone)
                self._truths[node] = (truth, words)
                kept.append((node, words))
        self.search_tree.set_truths([(node, words) for node, words in kept if isinstance(node, Node)])
        self._shares_counted = -SHARES_SECONDS
        self.judge()
        if message.done:
            self._truth_busy = False
            self.find_truths()

    def judge(self) -> None:
        """Mark every node shown (and the principal variation's) where the searcher prefers a child worse than a sibling
        (``Searcher.preferred_child``; on the principal variation, its next node), and judge its best move at the root
        (the head line), from the values found so far."""
        session = self.session
        tree = self.search_tree
        if session is None or not tree.truth:
            self.root_judgement = self.work_shares = None
            tree.set_fooled(set())
            self.refresh_figures()
            return
        known = self._truths
        with session.lock:
            searcher = session.searcher
            line = shown_line(searcher)
            state = searcher.root_state
            values = app_exact(self).values(state.game)
            chance = kit_of(state.game).has_chance(state.game)
            choices = dict(itertools.pairwise(line))  # (alpha-beta's line is the last complete iteration's)
            fooled = set()
            for node in {*choices, *tree.shown()}:
                chosen = choices[node] if node in choices else searcher.preferred_child(node)
                if chosen is None:
                    continue
                chooser = searcher.state_at(node).player if chance else state.player * (-1) ** (node.depth % 2)
                if chooser != CHANCE and judged(node, chosen, known, chooser, values).optimal is False:
                    fooled.add(node)
            moves = list(state.legal_moves())
            truths = [known[RootMove(move)][0] if RootMove(move) in known else None for move in moves]
            best = searcher.best_move()
            now = time.perf_counter()
            if now - self._shares_counted >= SHARES_SECONDS:
                self.work_shares = work_shares(searcher.root, moves, best, truths, state.player, values)
                self._shares_counted = now
                settled = self.work_shares.judgement.settled  # (before: a share of the losses known so far)
                if settled and self.work_shares.losing_share is not None:
                    self.losing_history.add(self.work_shares.losing_share)
            chosen_index = moves.index(best) if best in moves else None
            self.root_judgement = Judgement.of(truths, state.player, chosen_index, values)
            if len(known) > TRUTHS_KEPT:  # keep the values of the lines shown and of the choices judged
                roots: set[Valued] = {RootMove(move) for move in moves}
                wanted = roots | {child for node in line for child in node.children} | set(tree.shown())
                self._truths = {node: value for node, value in known.items() if node in wanted}
        tree.set_fooled(fooled)
        self.refresh_figures()

    def reveal_line(self) -> str:
        """Open the tree along the principal variation; what to say if the tree shown holds only part of it (``""``:
        all).  A ``UserError`` before there is one."""
        session = self.session
        if session is None:
            raise UserError("no principal variation yet: take a step first")
        with session.lock:
            line = session.searcher.principal_variation()
        followed = self.search_tree.reveal_moves(line)
        if not line:
            raise UserError("no principal variation yet: take a step first")
        if followed < len(line):
            return (
                f"the tree shown holds {followed} of the principal variation's {len(line)} moves "
                "(alpha-beta shows the iteration under way; its line is the last complete one's)"
            )
        return ""

    def reveal_step(self) -> None:
        """Open the tree down to the node the step shown acted on (a search shown afresh: after a move along the
        timeline, a saved search)."""
        session = self.session
        if session is None or not session.step_shown or not self.search_tree.follow:
            return
        path = session.timeline.event(session.step_shown - 1).path
        self.search_tree.reveal_moves(path)

    def refresh_figures(self) -> None:
        """Bring the head line and the stats up to date with the session."""
        session = self.session
        if session is None:
            return
        with session.lock:
            searcher = session.searcher
            stats = replace(searcher.stats)
            head = Text.assemble(best_text(searcher), " · ", value_text(searcher))
            shown, total = session.step_shown, session.steps_taken
        if self.root_judgement is not None and self.root_judgement.chosen is not None:
            head.append(" · ")
            head.append_text(judgement_text(self.root_judgement))
        if shown < total:
            head.append(f" · past: step {shown:,} of {total:,}", "bold reverse")
        shown_head = self.query_one("#head", Static)
        if head != shown_head.content:  # an update repaints it and lays the pane out again, at every step
            shown_head.update(head)
        self.query_one(TimelineBar).show(shown, total, session.timeline.best_changes())
        figures = Figures(
            stats,
            session.node_cap,
            self.rate.rate(),
            signed=positive_scale(searcher) is None,
            truth=() if self.work_shares is None else share_cells(self.work_shares),
        )
        if self.search_tree.truth:
            self.query_one(StatsPanel).show(figures, self.losing_history.shown(), losing=True)
        else:
            self.query_one(StatsPanel).show(figures, session.history.shown())
