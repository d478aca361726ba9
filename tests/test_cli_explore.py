"""``plyscope`` with no command opens the explorer: its options and position may come first."""

from __future__ import annotations

import pytest

from plyscope.tui.cli import parse_arguments


@pytest.mark.parametrize(
    ("argv", "game", "position"),
    [
        ([], "connect4", None),
        (["4453"], "connect4", "4453"),
        (["--game", "nim", "3,4,5"], "nim", "3,4,5"),
        (["5,2/2", "--game", "grundy"], "grundy", "5,2/2"),
        (["explore", "--game", "connect4:5x4"], "connect4:5x4", None),
    ],
)
def test_without_a_command_the_arguments_are_the_explorer_s(argv: list[str], game: str, position: str | None) -> None:
    args = parse_arguments(argv)
    assert (args.command, args.game, args.position) == ("explore", game, position)


def test_a_mistyped_command_is_named_with_the_choices(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        parse_arguments(["slove", "4453"])
    assert stopped.value.code == 2
    assert "invalid choice: 'slove'" in capsys.readouterr().err
