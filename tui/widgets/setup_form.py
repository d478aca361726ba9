"""The setup form: game, position, algorithm and its parameters (built from the registry), seed and budget.

Nothing changes until every field is valid: each bad field shows its message under it,
and only a configuration that builds a searcher is handed on (``SetupForm.Submitted``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import replace
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Input, Label, Select, Static

from plyscope.engine.errors import UserError
from plyscope.engine.kits import game_choices, kit_of, make_game
from plyscope.engine.numbers import MAX_MOVES, NumberError, parse_int, parse_seed
from plyscope.engine.search.entry import AlgorithmInfo, Param
from plyscope.engine.search.registry import algorithms, fitting_algorithms
from plyscope.tui.session import SearchConfig, Session, default_algorithm, default_budget, parse_position


def _text_of(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


class SetupForm(Widget):
    """A form for a ``SearchConfig``; posts ``Submitted`` with a new ``Session`` once everything is valid."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "submit", "Apply", show=True),
        Binding("escape", "cancel", "Cancel", show=True),
    ]

    DEFAULT_CSS = """
    SetupForm { height: auto; max-height: 100%; }
    SetupForm VerticalScroll { height: auto; max-height: 70vh; }
    SetupForm #params { height: auto; }
    SetupForm .row { height: auto; }
    SetupForm .row > Label { width: 12; padding: 0 1 0 0; }
    SetupForm .row > Input, SetupForm .row > Select { width: 1fr; }
    SetupForm .help { color: $text-muted; padding: 0 0 0 12; height: auto; }
    SetupForm .error { color: $error; padding: 0 0 0 12; height: auto; display: none; }
    SetupForm .error.shown { display: block; }
    SetupForm #buttons { height: auto; align-horizontal: right; padding: 1 0 0 0; }
    SetupForm #buttons > Button { margin: 0 0 0 2; }
    """

    class Submitted(Message):
        """The form was applied: ``session`` is built from the valid configuration."""

        def __init__(self, session: Session) -> None:
            super().__init__()
            self.session = session

    class Cancelled(Message):
        """The form was closed without applying it."""

    def __init__(
        self,
        config: SearchConfig,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self.config = config
        """The configuration the form started from."""
        self._shown_game = config.game
        """The game the algorithm list is for (``Select.Changed`` also comes on mount)."""
        self._shown_algorithm = ""
        self._rows_changing = asyncio.Lock()
        """Held while the parameter rows are replaced: a game change and an algorithm's ``Changed`` may both replace
        them at once, and rows removed while others mount left a ``Select`` without its overlay."""
        """The algorithm whose parameter fields are shown."""

    def compose(self) -> ComposeResult:
        config = self.config
        games = list(game_choices()) if config.game in game_choices() else [config.game, *game_choices()]
        with VerticalScroll(can_focus=False):  # (not a stop of its own: the form opens on its first field)
            yield from self._row(
                "game", Select([(g, g) for g in games], value=config.game, allow_blank=False, compact=True, id="game")
            )
            yield from self._row(
                "position",
                Input(config.position, placeholder=self._position_hint(config.game), compact=True, id="position"),
            )
            names = [info.name for info in fitting_algorithms(config.game)]
            chosen = config.algorithm if config.algorithm in names else default_algorithm(make_game(config.game))
            yield from self._row(
                "algorithm",
                Select([(n, n) for n in names], value=chosen, allow_blank=False, compact=True, id="algorithm"),
            )
            self._shown_algorithm = chosen
            yield Static(algorithms()[chosen].description, classes="help", id="algorithm-help")
            with Vertical(id="params"):
                yield from self._param_rows(algorithms()[chosen], config.params if chosen == config.algorithm else {})
            yield from self._row("seed", Input(str(config.seed), compact=True, id="seed"))
            budget = "" if config.budget is None else str(config.budget)
            yield from self._row(
                "budget", Input(budget, placeholder="moves (blank: no bound)", compact=True, id="budget")
            )
            yield Static("", classes="error", id="form-error")
        with Horizontal(id="buttons"):
            yield Button("Apply", variant="primary", id="apply", compact=True)
            yield Button("Cancel", id="cancel", compact=True)

    @staticmethod
    def _row(label: str, field: Widget, help_text: str = "") -> ComposeResult:
        yield Horizontal(Label(label), field, classes="row")
        if help_text:
            yield Static(help_text, classes="help")
        yield Static("", classes="error", id=f"{field.id}-error")

    def _param_rows(self, info: AlgorithmInfo, values: Mapping[str, object]) -> ComposeResult:
        for param in info.params:
            value = _text_of(values.get(param.name, param.default))
            field: Widget
            if param.kind is bool or param.choices:
                options = param.choices or ("true", "false")
                field = Select(
                    [(o, o) for o in options],
                    value=value if value in options else options[0],
                    allow_blank=False,
                    compact=True,
                    id=f"param-{param.name}",
                )
            else:
                field = Input(value, placeholder=param.range_text(), compact=True, id=f"param-{param.name}")
            yield from self._row(param.name, field, f"{param.help} ({param.range_text()})")

    @staticmethod
    def _position_hint(game_name: str) -> str:
        """How a position of ``game_name`` is written, with an example (its kit's ``position_hint``)."""
        try:
            kit = kit_of(make_game(game_name))
        except UserError:
            return ""
        return kit.position_hint or kit.positions

    # ----------------------------------------------------------------- events

    @on(Select.Changed, "#game")
    async def _game_changed(self, event: Select.Changed) -> None:
        game_name = str(event.value)
        if game_name == self._shown_game:
            return
        self._shown_game = game_name
        self.query_one("#position", Input).placeholder = self._position_hint(game_name)
        algorithm = self.query_one("#algorithm", Select)
        names = [info.name for info in fitting_algorithms(game_name)]
        current = algorithm.value
        chosen = str(current) if current in names else default_algorithm(make_game(game_name))
        # The parameter rows follow at once, not when the algorithm's own Changed message comes round.
        await self._show_params(chosen)
        algorithm.set_options([(n, n) for n in names])
        algorithm.value = chosen

    @on(Select.Changed, "#algorithm")
    async def _algorithm_changed(self, event: Select.Changed) -> None:
        await self._show_params(str(event.value))

    async def _show_params(self, name: str) -> None:
        """Show the description and the parameter rows of algorithm ``name`` (defaults), unless shown already; a
        budget left at the old algorithm's default becomes the new one's."""
        async with self._rows_changing:
            info = algorithms().get(name)
            if info is None or info.name == self._shown_algorithm:
                return
            budget = self.query_one("#budget", Input)
            if budget.value.strip() == str(default_budget(self._shown_algorithm)):
                budget.value = str(default_budget(info.name))
            self._shown_algorithm = info.name
            self.query_one("#algorithm-help", Static).update(info.description)
            params = self.query_one("#params", Vertical)
            with self.app.batch_update():
                await params.remove_children()
                await params.mount_all(list(self._param_rows(info, {})))

    @on(Button.Pressed, "#apply")
    def _apply_pressed(self) -> None:
        self.action_submit()

    @on(Button.Pressed, "#cancel")
    def _cancel_pressed(self) -> None:
        self.action_cancel()

    @on(Input.Submitted)
    def _input_submitted(self) -> None:
        self.action_submit()

    def action_cancel(self) -> None:
        self.post_message(self.Cancelled())

    def action_submit(self) -> None:
        """Check every field; post ``Submitted`` only if all are valid and the searcher can be built."""
        session = self.check()
        if session is not None:
            self.post_message(self.Submitted(session))

    # ----------------------------------------------------------------- checking

    def check(self) -> Session | None:
        """The session the form describes, or ``None`` after showing what is wrong next to each bad field."""
        errors: dict[str, str] = {}
        game_name = str(self.query_one("#game", Select).value)
        position = self.query_one("#position", Input).value.strip()
        try:
            parse_position(make_game(game_name), position)
        except UserError as error:
            errors["position"] = str(error)
        algorithm = str(self.query_one("#algorithm", Select).value)
        info = algorithms()[algorithm]
        params: dict[str, object] = {}
        for param in info.params:
            raw = self._raw_value(param)
            try:
                parsed = param.parse(raw)
            except UserError as error:
                errors[f"param-{param.name}"] = str(error)
                continue
            if parsed != param.default:
                params[param.name] = parsed
        seed = 0
        try:
            seed = parse_seed(self.query_one("#seed", Input).value)
        except NumberError as error:
            errors["seed"] = str(error)
        budget_text = self.query_one("#budget", Input).value.strip()
        budget: int | None = None
        if budget_text:
            try:
                budget = parse_int(budget_text, "budget", lo=0, hi=MAX_MOVES)
            except NumberError as error:
                errors["budget"] = f"{error}; blank: no bound"
        session = None
        if not errors:
            config = replace(
                self.config,
                game=game_name,
                position=position,
                algorithm=algorithm,
                params=params,
                seed=seed,
                budget=budget,
            )
            try:
                session = Session.create(config)
            except UserError as error:
                errors["form"] = str(error)
        self._show_errors(errors)
        return session

    def _raw_value(self, param: Param) -> object:
        field = self.query_one(f"#param-{param.name}")
        if isinstance(field, Select):
            return field.value
        assert isinstance(field, Input)
        return field.value

    def _show_errors(self, errors: dict[str, str]) -> None:
        for line in self.query(".error").results(Static):
            field = (line.id or "").removesuffix("-error")
            message = errors.get(field, "")
            line.update(message)
            line.set_class(bool(message), "shown")
