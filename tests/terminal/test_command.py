"""``dehla play`` chooses its mode: the full-screen table in a terminal, the line-by-line mode with ``--plain``
or when input or output is not a terminal; bad arguments are one-line errors; the table is drawn in the
preset's direction and every seat's name fits at 4, 6 and 8 players."""

from __future__ import annotations

import io
import random
from typing import ClassVar

import pytest

from dehla import PRESETS, Match
from dehla.bots.heuristic import HeuristicBot
from dehla.cli import play as play_command
from dehla.cli.main import main
from dehla.engine.observe import Observation
from dehla.terminal.app import Outcome, TableApp
from dehla.terminal.felt import draw_felt, seat_point
from dehla.terminal.plain import play_lines


class FakeTable:
    """Stands in for ``TableApp.run``: records that the table was opened, and leaves at once."""

    opened: ClassVar[list[TableApp]] = []

    @staticmethod
    def run(app: TableApp) -> Outcome:
        FakeTable.opened.append(app)
        return Outcome("abandoned", ("Match abandoned.",))


@pytest.fixture
def fake_table(monkeypatch: pytest.MonkeyPatch) -> list[TableApp]:
    FakeTable.opened = []
    monkeypatch.setattr(TableApp, "run", FakeTable.run)
    return FakeTable.opened


def test_a_terminal_gets_the_full_screen_table_with_heuristic_bots(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], fake_table: list[TableApp]
) -> None:
    monkeypatch.setattr(play_command, "full_screen_possible", lambda: True)
    assert main(["play", "--rules", "mendikot-6", "--seat", "2", "--seed", "3"]) == 0
    [app] = fake_table
    assert app.game.me == 2 and app.game.rules.players == 6
    assert [getattr(bot, "name", None) for bot in app.game.players] == [
        "heuristic",
        "heuristic",
        None,
        "heuristic",
        "heuristic",
        "heuristic",
    ]
    assert app.names[2] == "You" and app.names[1] == "Heuristic1"
    assert "Match abandoned." in capsys.readouterr().out


def test_plain_flag_and_a_pipe_give_the_line_by_line_mode(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], fake_table: list[TableApp]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    monkeypatch.setattr(play_command, "full_screen_possible", lambda: True)
    assert main(["play", "--plain", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "Type 'help' for help." in out and "Match abandoned." in out
    assert fake_table == []
    monkeypatch.undo()
    monkeypatch.setattr(TableApp, "run", FakeTable.run)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    # under pytest standard output is captured, not a terminal: the plain mode without asking
    assert not play_command.full_screen_possible()
    assert main(["play", "--seed", "1"]) == 0
    assert "Type 'help' for help." in capsys.readouterr().out and fake_table == []


def test_the_plain_mode_tells_a_card_that_makes_trump_once(capsys: pytest.CaptureFixture[str]) -> None:
    """Taash: the first player who cannot follow makes trump with the card played, told in one line."""
    rng = random.Random(5)
    match = Match(PRESETS["taash"], 0)
    bots = [HeuristicBot(seat) for seat in range(4)]
    play_lines(match, list(bots), rng, ["You", "Heuristic1", "Heuristic2", "Heuristic3"], 0)
    lines = capsys.readouterr().out.splitlines()
    cuts = [index for index, line in enumerate(lines) if "cannot follow and plays" in line]
    assert cuts  # a whole Taash match: some hand's trump is made by a cut
    for index in cuts:
        card = lines[index].split("cannot follow and plays ")[1].split(":")[0]
        assert not lines[index - 1].endswith(f"plays {card}"), lines[index - 1 : index + 1]
    played = [line for line in lines if " plays " in line and "cannot follow" not in line]
    assert played  # the other cards are still told one by one


def test_a_dumb_terminal_is_not_full_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin.isatty", lambda: True, raising=False)
    monkeypatch.setattr("sys.stdout.isatty", lambda: True, raising=False)
    monkeypatch.setenv("TERM", "dumb")
    assert not play_command.full_screen_possible()
    monkeypatch.setenv("TERM", "xterm-256color")
    assert play_command.full_screen_possible()


@pytest.mark.parametrize(
    ("argv", "why"),
    [
        (["--pause", "-1"], "must be 0 or a positive number of seconds"),
        (["--pause", "soon"], "'soon' is not a number of seconds"),
        (["--opponents", "genius"], "unknown bot 'genius'"),
        (["--partner", "cheat"], "for measurement only"),
        (["--rules", "mendikot-8", "--seat", "8"], "--seat must be a seat number 0..7"),
    ],
)
def test_bad_arguments_are_one_line_errors(capsys: pytest.CaptureFixture[str], argv: list[str], why: str) -> None:
    try:
        code = main(["play", *argv])
    except SystemExit as stop:
        code = int(stop.code or 0)
    err = capsys.readouterr().err
    assert code in (1, 2) and why in err and "Traceback" not in err


def _observation(preset: str, seat: int = 0) -> Observation:
    rng = random.Random(5)
    match = Match.new(preset, rng)
    match.apply(match.random_deal(rng))
    return match.observe(seat)


def test_seats_sit_in_the_presets_direction() -> None:
    # you at the bottom; the next seat in play order to the right when play goes anticlockwise, left when clockwise
    me_x, me_y = seat_point(0, 0, 4, "anticlockwise", 60, 15)
    next_x, _ = seat_point(1, 0, 4, "anticlockwise", 60, 15)
    assert me_y == 13 and next_x > me_x
    assert seat_point(1, 0, 4, "clockwise", 60, 15)[0] < me_x
    assert seat_point(2, 0, 4, "clockwise", 60, 15)[1] == 0  # the partner opposite


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("size", [(48, 13), (88, 29)])
def test_every_seat_is_drawn_with_its_name(preset: str, size: tuple[int, int]) -> None:
    obs = _observation(preset, seat=1)
    names = [f"Heuristic{seat}" if seat != 1 else "You" for seat in range(obs.players)]
    text = draw_felt(obs, names, *size).plain
    lines = text.splitlines()
    assert len(lines) == size[1] and all(len(line) == size[0] for line in lines)
    for name in names:
        assert name in text, (name, "\n" + text)
    assert "(D)" in text and ("▶" in text) == (obs.to_act is not None)
