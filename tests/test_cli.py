"""The ``dehla`` command: ``rules``, ``simulate`` and ``play`` (``replay`` has its own file).

Most tests call ``dehla.cli.main.main(argv)`` in-process; a few run the
installed ``dehla`` command as a real subprocess.  ``dehla play`` is driven by
a scripted person who reads the screen and types what a person would: the
first legal action shown, after some deliberate mistakes.
"""

from __future__ import annotations

import io
import json
import os
import select
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tests.oracle.spec_oracle import replay_record

from dehla import PRESETS
from dehla.cards import ALL_CARDS
from dehla.cli.main import main
from dehla.record import read_records, replay, replay_json

DEHLA = Path(sys.executable).with_name("dehla")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_exit(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """For argument errors, which argparse reports by exiting."""
    try:
        code = main(list(argv))
    except SystemExit as stop:
        code = int(stop.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def no_traceback(*texts: str) -> bool:
    return not any("Traceback" in text for text in texts)


# ---------------------------------------------------------------------------------------------
# dehla (no subcommand), --version


def test_dehla_without_a_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys)
    assert code == 0
    for command in ("play", "replay", "rules", "simulate"):
        assert command in out


def test_dehla_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_exit(capsys, "--version")
    assert code == 0 and out.startswith("dehla ") and "engine" in out  # says whether the engine is compiled


def test_unknown_subcommand_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_exit(capsys, "fly")
    assert code == 2 and "invalid choice" in err and no_traceback(err)


# ---------------------------------------------------------------------------------------------
# dehla rules


def test_rules_lists_all_ten_presets_with_a_description(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rules")
    assert code == 0 and err == ""
    listed = [line.split()[0] for line in out.splitlines()[1:] if line.strip()]
    assert listed == list(PRESETS)
    for name, rules in PRESETS.items():
        assert rules.description in out, name


def test_rules_taash_explains_in_plain_words(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "taash")
    assert code == 0
    text = " ".join(out.split()).lower()
    for phrase in (
        "5 cards each",
        "If 5 tricks pass with nobody off-suit, the rest is dealt anyway and the hand is played without trump",
        "already counts as a trump in that trick",
        "Each trick goes to its winner's team at once",
        "4-0 scores 80, 3-1 scores 30",
        "the team with more tricks scores 20",
        "ends early",
        "first team to 100 points",
        "the player after the dealer, every hand",
        "each player draws a card, the highest deals",
    ):
        assert phrase.lower() in text, phrase


@pytest.mark.parametrize(
    ("name", "phrases"),
    [
        (
            "pagat",
            [
                "names a suit",
                "two tricks in a row",
                "third win in a row stays in the centre",
                "at 2-2 the team that did not deal wins",
                "7 hand wins in a row also earn a kot",
                "Trick counts never matter",
                "same dealer deals again",
            ],
        ),
        ("pagat-cut", ["5 cards each", "counts as a trump in that trick", "kot"]),
        ("taash-b2b", ["Tricks still count for their winner's team at once; only the tens wait"]),
        (
            "mendikot",
            [
                "13 cards each",
                "If nobody ever fails to follow, the hand has no trump",
                "at 2-2 the team with more tricks wins",
                "the dealer's partner (dealer + 2)",
                "first team to 5 points",
            ],
        ),
        (
            "mendikot-band",
            [
                "lays one of its cards face down",
                "ask for the card to be shown",
                "must play a trump to that trick",
                "never count as trumps, even in the same trick",
                "only the hidden card, it is turned up and played as a trump",
            ],
        ),
        ("mendikot-band-auto", ["turned up automatically", "may then play any card, the chooser included"]),
        ("mendikot-open", ["draws a card from the shuffled pack and shows it", "goes back into the pack"]),
        (
            "mendikot-6",
            [
                "6 players",
                "48 cards (the four twos taken out)",
                "8 cards each",
                "equal tricks (possible with 6 or 8 players) is a drawn hand",
            ],
        ),
        ("mendikot-8", ["8 players", "6 cards each"]),
    ],
)
def test_rules_explains_each_preset_and_its_rulings(
    capsys: pytest.CaptureFixture[str], name: str, phrases: list[str]
) -> None:
    code, out, _ = run(capsys, "rules", name)
    assert code == 0
    text = " ".join(out.split()).lower()
    for phrase in phrases:
        assert phrase.lower() in text, phrase


def test_rules_explains_options_given_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", '{"preset": "taash", "target": 200, "trick_minimum": true}')
    assert code == 0
    assert "first team to 200 points" in out
    assert "Trick minimum" in out


def test_rules_json_prints_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "mendikot-6", "--json")
    assert code == 0
    options = json.loads(out)
    assert options["preset"] == "mendikot-6" and options["players"] == 6 and options["trump"] == "cut"
    code, out, _ = run(capsys, "rules", "--json")
    assert set(json.loads(out)) == set(PRESETS)


def test_rules_unknown_preset_lists_the_valid_ones_and_exits_non_zero(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rules", "menidkot")
    assert code != 0 and out == ""
    assert "unknown preset 'menidkot'" in err
    assert all(name in err for name in PRESETS)
    assert len(err.strip().splitlines()) == 1 and no_traceback(err)


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ('{"preset": "pagat", "staged_deal": true}', "staged_deal needs trump"),
        ('{"preset": "pagat", "bogus": 1}', "unknown rules option 'bogus'"),
        ('{"preset": "pagat", "target": "x"}', "positive whole number"),
        ('{"preset": "pagat",', "not valid JSON"),
    ],
)
def test_rules_bad_json_rules_are_one_line_errors(capsys: pytest.CaptureFixture[str], value: str, why: str) -> None:
    code, out, err = run(capsys, "rules", value)
    assert code == 1 and out == ""
    assert why in err and len(err.strip().splitlines()) == 1 and no_traceback(err)


# ---------------------------------------------------------------------------------------------
# dehla simulate


@pytest.mark.parametrize("rules", ["pagat", "taash-b2b", "mendikot-band", "mendikot-open", "mendikot-8"])
def test_simulate_writes_records_that_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str], rules: str) -> None:
    out_file = tmp_path / "games.jsonl"
    code, _, err = run(capsys, "simulate", "--rules", rules, "--seed", "5", "--matches", "3", "--out", str(out_file))
    assert code == 0
    assert "wrote 3 match records" in err
    entries = list(read_records(out_file))
    assert len(entries) == 3
    for entry in entries:
        assert entry.error is None
        record: Any = entry.data
        assert record["rules"] == rules and record["format"] == "dehla-record/1"
        match = replay(record)
        assert match.is_over
        ours = replay_json(match)
        theirs = replay_record(record)
        assert ours["match"] == theirs["match"]


def test_simulate_is_reproducible_from_its_seed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = [tmp_path / name for name in ("a.jsonl", "b.jsonl", "c.jsonl")]
    for path, seed in zip(paths, ("9", "9", "10")):
        argv = ["simulate", "--rules", "mendikot", "--seed", seed, "--matches", "2", "--out", str(path)]
        assert run(capsys, *argv)[0] == 0
    assert paths[0].read_text() == paths[1].read_text()
    assert paths[0].read_text() != paths[2].read_text()


def test_simulate_to_standard_output_and_with_rules_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--rules", '{"preset": "taash", "target": 50}', "--seed", "1", "--out", "-")
    assert code == 0
    [line] = out.splitlines()
    record = json.loads(line)
    assert record["rules"] == {"preset": "taash", "target": 50}
    assert replay(record).is_over


@pytest.mark.parametrize(
    ("argv", "code", "why"),
    [
        (["--rules", "nope", "--seed", "1", "--out", "-"], 1, "unknown preset 'nope'"),
        (["--rules", "pagat", "--seed", "x", "--out", "-"], 2, "seed 'x' is not a whole number"),
        (["--rules", "pagat", "--seed", "1", "--matches", "0", "--out", "-"], 2, "must be at least 1"),
        (["--rules", "pagat", "--seed", "1", "--matches", "two", "--out", "-"], 2, "is not a whole number"),
        (["--rules", "pagat", "--seed", "1"], 2, "--out"),
        (["--seed", "1", "--out", "-"], 2, "--rules"),
        (["--rules", "pagat", "--seed", "1", "--out", "-", "--bots", "genius"], 1, "unknown bot 'genius'"),
        (["--rules", "pagat", "--seed", "1", "--out", "-", "--bots", "random,random"], 1, "--bots needs 1 or 4"),
    ],
)
def test_simulate_bad_arguments_are_one_line_errors(
    capsys: pytest.CaptureFixture[str], argv: list[str], code: int, why: str
) -> None:
    status, out, err = run_exit(capsys, "simulate", *argv)
    assert status == code
    assert why in err and no_traceback(err)
    assert out == ""


def test_simulate_to_an_unwritable_place_is_an_error_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run_exit(
        capsys, "simulate", "--rules", "pagat", "--seed", "1", "--out", str(tmp_path / "no" / "such" / "dir.jsonl")
    )
    assert status != 0 and no_traceback(err) and err.strip()


# ---------------------------------------------------------------------------------------------
# dehla play, driven through standard input by a scripted person


def parse_hand(line: str) -> set[str]:
    """Cards in a ``Your hand: S A 10  H K  D —  C 9`` line (``--ascii`` screens)."""
    text = line.split("Your hand:", 1)[1].split("   (", 1)[0]
    cards = set()
    for group in text.strip().split("  "):
        suit, *ranks = group.split()
        cards.update(rank + suit for rank in ranks if rank != "—")
    return cards


class Screen:
    """What the person last saw: the legal actions and the hand."""

    def __init__(self, text: str) -> None:
        lines = text.splitlines()
        legal_line = next(line for line in reversed(lines) if line.startswith("Legal: "))
        self.legal = legal_line[len("Legal: ") :].split("  ")
        hand_line = next(line for line in reversed(lines) if line.startswith("Your hand: "))
        self.hand = parse_hand(hand_line)

    @property
    def plays_only(self) -> bool:
        return all(" " not in action and action != "reveal" for action in self.legal)


Mistake = Callable[[Screen], "str | None"]


def unreadable(screen: Screen) -> str | None:
    return "ZZ"


def card_not_held(screen: Screen) -> str | None:
    if not screen.plays_only:
        return None
    return next(str(card) for card in ALL_CARDS if str(card) not in screen.hand)


def not_following_suit(screen: Screen) -> str | None:
    if not screen.plays_only:
        return None
    others = sorted(screen.hand - set(screen.legal))
    return others[0] if others else None


class ScriptedPerson(io.TextIOBase):
    """Standard input for ``dehla play``: reads the captured screen, types the first legal action.

    ``mistakes`` are typed first, each as soon as the screen allows it (a card
    not held needs a card prompt, not following suit needs a trick to follow).
    """

    def __init__(
        self, capsys: pytest.CaptureFixture[str], mistakes: list[Mistake] | None = None, limit: int | None = None
    ) -> None:
        self.capsys = capsys
        self.mistakes = list(mistakes or [])
        self.limit = limit
        self.screen_text = ""
        self.typed: list[str] = []
        self.made: dict[str, str] = {}  # mistake name -> what was typed

    def readable(self) -> bool:
        return True

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        self.screen_text += self.capsys.readouterr().out
        if self.limit is not None and len(self.typed) >= self.limit:
            return ""  # end of input: the person walks away
        screen = Screen(self.screen_text)
        text = None
        if self.mistakes:
            text = self.mistakes[0](screen)
            if text is not None:
                self.made[getattr(self.mistakes.pop(0), "__name__", "?")] = text
        if text is None:
            text = screen.legal[0]
        self.typed.append(text)
        return text + "\n"


def play_with(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str], **person: Any
) -> tuple[int, str, str, ScriptedPerson]:
    stdin = ScriptedPerson(capsys, **person)
    monkeypatch.setattr("sys.stdin", stdin)
    code = main(["play", "--ascii", *argv])
    out, err = capsys.readouterr()
    return code, stdin.screen_text + out, err, stdin


def _actions_of_seat(record: dict[str, Any], seat: int) -> list[str]:
    """The actions ``seat`` took in a record, in order (replayed to know who acted)."""
    from tests.helpers import deal

    from dehla import parse_action

    match = replay({**record, "hands": []})
    taken = []
    for hand in record["hands"]:
        match.apply(deal(*hand["cards"], open_draw=hand.get("open_draw")))
        for text in hand["actions"]:
            if match.to_act == seat:
                taken.append(text)
            match.apply(parse_action(text))
    return taken


@pytest.mark.parametrize(("rules", "seat", "seed"), [("pagat", 0, 3), ("mendikot-band", 2, 1), ("taash", 1, 2)])
def test_play_a_whole_match_to_its_end_and_save_a_record_that_replays(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    rules: str,
    seat: int,
    seed: int,
) -> None:
    saved = tmp_path / "match.jsonl"
    code, screen, err, person = play_with(
        monkeypatch, capsys, ["--rules", rules, "--seat", str(seat), "--seed", str(seed), "--save", str(saved)]
    )
    assert code == 0 and no_traceback(screen, err)
    assert "Match over:" in screen
    assert ("Your team wins!" in screen) != ("The other team wins." in screen)
    assert f"Record saved to {saved}" in screen
    [entry] = list(read_records(saved))
    record: Any = entry.data
    match = replay(record)
    assert match.is_over
    assert record["players"][seat] == "You"
    assert replay_record(record)["match"] == replay_json(match)["match"]
    assert _actions_of_seat(record, seat) == person.typed  # the record holds exactly what the person typed
    assert len(person.typed) > 10


def test_play_screen_shows_hand_legal_cards_trick_trump_centre_tens_and_score(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, screen, _, _ = play_with(monkeypatch, capsys, ["--rules", "pagat", "--seed", "1"])
    assert "First dealer by lot: Heuristic3 (seat 3)" in screen  # so seat 0, the person, calls trump
    assert "Your hand: S " in screen and "Legal: call S  call H  call D  call C" in screen
    assert "trump not set yet" in screen and "You (seat 0) calls spades" in screen
    assert "trump ♠ spades" in screen
    assert "Trick 1: you lead" in screen
    assert "Trick 2: " in screen
    assert "Centre: " in screen
    assert "Team 0 (yours): tens " in screen and "Team 1: tens " in screen
    assert "kots 0-0 (target 1)" in screen
    assert "(+8 cards still to be dealt)" in screen


def test_play_re_asks_bad_input_with_a_reason(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, screen, err, person = play_with(
        monkeypatch,
        capsys,
        ["--rules", "mendikot", "--seed", "4"],
        mistakes=[unreadable, card_not_held, not_following_suit],
    )
    assert code == 0 and no_traceback(screen, err)
    assert set(person.made) == {"unreadable", "card_not_held", "not_following_suit"}
    assert "cannot read action 'ZZ': 'ZZ' is not a card" in screen
    held = person.made["card_not_held"]
    assert f"{held} is not allowed now: you do not hold {held}. Legal: " in screen
    off_suit = person.made["not_following_suit"]
    assert f"{off_suit} is not allowed now: you must follow " in screen
    assert "Match over:" in screen


def test_play_help_and_table_commands(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def once(text: str) -> Mistake:
        return lambda screen: text

    code, screen, _, _ = play_with(
        monkeypatch,
        capsys,
        ["--rules", "mendikot", "--seed", "4"],
        mistakes=[once("help"), once("rules"), once("hand"), once("last"), once("   ")],
        limit=8,
    )
    assert code == 0
    assert "Type a card to play it" in screen
    assert "Mendikot with katte" in screen
    assert "no trick finished yet this hand" in screen


def test_play_end_of_input_abandons_the_match_cleanly_and_saves_what_was_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "partial.jsonl"
    code, screen, err, _ = play_with(
        monkeypatch, capsys, ["--rules", "mendikot", "--seed", "6", "--save", str(saved)], limit=5
    )
    assert code == 0 and no_traceback(screen, err)
    assert "Match abandoned." in screen
    [entry] = list(read_records(saved))
    match = replay(entry.data)
    assert not match.is_over


def test_play_quit_leaves(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, screen, _, _ = play_with(
        monkeypatch, capsys, ["--rules", "taash", "--seed", "6"], mistakes=[lambda screen: "quit"]
    )
    assert code == 0 and "Match abandoned." in screen


@pytest.mark.parametrize(
    ("argv", "why"),
    [
        (["--rules", "nope"], "unknown preset 'nope'"),
        (["--seat", "4"], "--seat must be a seat number 0..3"),
        (["--rules", "mendikot-6", "--seat", "6"], "--seat must be a seat number 0..5"),
        (["--seed", "abc"], "seed 'abc' is not a whole number"),
        (["--partner", "genius"], "unknown bot 'genius'"),
    ],
)
def test_play_bad_arguments_are_one_line_errors(capsys: pytest.CaptureFixture[str], argv: list[str], why: str) -> None:
    code, _, err = run_exit(capsys, "play", *argv)
    assert code in (1, 2)
    assert why in err and no_traceback(err)


# ---------------------------------------------------------------------------------------------
# The installed command, as a real subprocess


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONIOENCODING": "utf-8"}


@pytest.fixture(scope="module")
def dehla_command() -> Path:
    if not DEHLA.exists():  # pragma: no cover - the package is always installed with the test extras
        pytest.fail(f"the dehla command is not installed beside {sys.executable}")
    return DEHLA


def test_installed_command_rules_and_replay_errors(dehla_command: Path, tmp_path: Path) -> None:
    listed = subprocess.run([dehla_command, "rules"], capture_output=True, text=True, env=_env(), timeout=60)
    assert listed.returncode == 0
    assert all(name in listed.stdout for name in PRESETS)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "dehla-record/1", "rules": "pagat"}\nnot json\n', encoding="utf-8")
    replayed = subprocess.run(
        [dehla_command, "replay", "--json", bad], capture_output=True, text=True, env=_env(), timeout=60
    )
    assert replayed.returncode == 1
    assert replayed.stderr == ""
    errors = [json.loads(line)["error"] for line in replayed.stdout.splitlines()]
    assert "first_dealer" in errors[0] and "not JSON" in errors[1]


def test_installed_command_simulate_then_replay(dehla_command: Path, tmp_path: Path) -> None:
    out = tmp_path / "sim.jsonl"
    simulated = subprocess.run(
        [dehla_command, "simulate", "--rules", "mendikot-open", "--seed", "3", "--matches", "2", "--out", out],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=60,
    )
    assert simulated.returncode == 0, simulated.stderr
    replayed = subprocess.run(
        [dehla_command, "replay", "--json", out], capture_output=True, text=True, env=_env(), timeout=60
    )
    assert replayed.returncode == 0 and replayed.stderr == ""
    assert len(replayed.stdout.splitlines()) == 2


def _read_until_prompt(process: subprocess.Popen[bytes], deadline: float) -> str:
    """Read the child's output until it waits at the ``You > `` prompt or exits."""
    assert process.stdout is not None
    chunks: list[bytes] = []
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stdout], [], [], 0.5)
        if ready:
            data = os.read(process.stdout.fileno(), 65536)
            if not data:
                break
            chunks.append(data)
            if b"".join(chunks).endswith(b"You > "):
                break
        elif process.poll() is not None:
            break
    return b"".join(chunks).decode("utf-8")


def test_installed_command_play_a_whole_match_through_stdin(dehla_command: Path, tmp_path: Path) -> None:
    saved = tmp_path / "played.jsonl"
    process = subprocess.Popen(
        [dehla_command, "play", "--rules", "pagat", "--seed", "11", "--ascii", "--save", str(saved)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(),
    )
    assert process.stdin is not None
    deadline = time.monotonic() + 120
    screen = ""
    typed = 0
    try:
        while True:
            screen += _read_until_prompt(process, deadline)
            if not screen.endswith("You > "):
                break
            if typed == 0:
                process.stdin.write(b"ZZ\n")  # a mistake first: the prompt must come back with a reason
            else:
                process.stdin.write((Screen(screen).legal[0] + "\n").encode())
            process.stdin.flush()
            typed += 1
        process.wait(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.stderr is not None
    err = process.stderr.read().decode()
    assert process.returncode == 0, err
    assert no_traceback(screen, err)
    assert "cannot read action 'ZZ'" in screen
    assert "Match over:" in screen
    [entry] = list(read_records(saved))
    assert replay(entry.data).is_over


@pytest.mark.parametrize(
    "argv",
    [
        ["serve", "--bot-delay"],
        ["serve", "--hand-pause"],
        ["serve", "--lease-seconds"],
        ["play", "--rules", "pagat", "--pause"],
        ["play", "--rules", "pagat", "--move-timeout"],
        ["arena", "--rules", "pagat", "--bots", "random,random", "--move-timeout"],
        ["analyse", "record.json", "--hand-seconds"],
    ],
    ids=lambda argv: f"{argv[0]} {argv[-1]}",
)
@pytest.mark.parametrize("value", ["nan", "soon"])
def test_every_seconds_option_refuses_what_is_not_a_number_of_seconds(
    capsys: pytest.CaptureFixture[str], argv: list[str], value: str
) -> None:
    status, out, err = run_exit(capsys, *argv, value)
    assert status == 2
    assert f"{value!r} is not a number of seconds" in err and no_traceback(err)
    assert out == ""
