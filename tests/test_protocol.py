"""The bot protocol: the observation JSON, both sides of the conversation, and every way a bot can fail."""

from __future__ import annotations

import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from dehla import PRESETS, Match, parse_action
from dehla.bots import RandomBot, make_bot
from dehla.cli.main import main
from dehla.errors import DehlaError
from dehla.play import BotFailure, checked_act, close_bots
from dehla.protocol import (
    PROTOCOL,
    CommandBot,
    make_player,
    observation_from_json,
    python_command,
    serve,
)
from dehla.protocol.host import stop_idle_processes

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "simple_bot.py"
JS_EXAMPLE = ROOT / "examples" / "simple_bot.js"
DOC = ROOT / "docs" / "protocol.md"
BOT_SERVER = f"cmd:{sys.executable} -m dehla bot"


def play(match: Match, bots: list, rng: random.Random, hands: int | None = None) -> Match:
    """Play ``match`` to its end (or for ``hands`` hands), every decision through ``checked_act``."""
    while not match.is_over and (hands is None or len(match.results) < hands):
        if match.is_chance:
            match.apply(match.random_deal(rng))
        else:
            seat = match.to_act
            match.apply(checked_act(bots[seat], match.observe(seat)))
    return match


def positions(preset: str, seed: int, limit: int = 200):
    """(match, seat) at every decision of a random match, every seat's view."""
    rng = random.Random(seed)
    match = Match.new(preset, rng)
    steps = 0
    while not match.is_over and steps < limit:
        if match.is_chance:
            match.apply(match.random_deal(rng))
            continue
        yield match
        match.apply(rng.choice(match.legal_actions()))
        steps += 1
    yield match


# ------------------------------------------------------------------------------ observation JSON


@pytest.mark.parametrize("preset", list(PRESETS))
def test_observation_json_reads_back_exactly(preset: str) -> None:
    for match in positions(preset, seed=len(preset), limit=120):
        for seat in range(match.players):
            observation = match.observe(seat)
            data = json.loads(json.dumps(observation.to_json()))
            again = observation_from_json(data)
            assert again == observation
            assert again.to_json() == data


def test_observation_json_carries_finished_hands_and_the_running_score() -> None:
    rng = random.Random(5)
    match = play(Match.new("mendikot", rng), [RandomBot(seat) for seat in range(4)], rng, hands=3)
    match.apply(match.random_deal(rng))
    observation = match.observe(1)
    again = observation_from_json(json.loads(json.dumps(observation.to_json())))
    assert len(again.results) == 3
    assert again.results == observation.results
    assert [result.score for result in again.results] == [result.score for result in match.results]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda data: data.update(format="something/2"), "observation.format"),
        (lambda data: data.pop("hand"), "observation.hand is missing"),
        (lambda data: data.update(hand=["ZZ"]), "observation.hand[0]"),
        (lambda data: data.update(seat="two"), "observation.seat must be a whole number"),
        (lambda data: data.update(legal_actions=["fly away"]), "observation.legal_actions[0]"),
        (lambda data: data.update(rules="nonsense"), "observation.rules"),
        (lambda data: data["match"].update(score=[1]), "observation.match.score"),
        (lambda data: data.update(tricks=[{"leader": 0}]), "observation.tricks[0].cards is missing"),
    ],
)
def test_bad_observation_json_names_the_field(change, message: str) -> None:
    rng = random.Random(2)
    match = Match.new("pagat", rng)
    match.apply(match.random_deal(rng))
    data = match.observe(match.to_act).to_json()
    change(data)
    with pytest.raises(DehlaError, match=message.replace("[", r"\[").replace("]", r"\]")):
        observation_from_json(data)


def test_observation_json_must_be_an_object() -> None:
    with pytest.raises(DehlaError, match="must be a JSON object"):
        observation_from_json(["not", "an", "object"])


def test_observation_json_from_an_older_host_reads_without_the_newer_fields() -> None:
    """A host that builds observations itself (``dehla bot`` behind another language) may not send issue 20's fields."""
    rng = random.Random(3)
    match = Match.new("mendikot", rng)
    match.apply(match.random_deal(rng))
    match.apply(match.legal_actions()[0])
    data = match.observe(match.to_act).to_json()
    older = {key: value for key, value in data.items() if key not in ("trick_winner", "events", "cut_open")}
    older["trick"] = [{"seat": play["seat"], "card": play["card"]} for play in data["trick"]]
    observation = observation_from_json(older)
    assert observation.trick == match.observe(match.to_act).trick
    assert observation.trick_trumps == () and observation.trick_winner is None and observation.events == ()


def test_the_documented_example_observation_is_a_real_one_and_every_field_is_documented() -> None:
    """docs/protocol.md's example reads back, has exactly the fields ``to_json`` writes, and its table lists them."""
    text = DOC.read_text(encoding="utf-8")
    example = json.loads(
        text.split("The observation in that `act` message:", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    )
    observation = observation_from_json(example)
    assert observation.to_json() == example
    rng = random.Random(1)
    match = Match.new("pagat", rng)
    match.apply(match.random_deal(rng))
    real = match.observe(0).to_json()
    assert set(real) == set(example)
    table = text.split("## The observation, `dehla-observation/1`, field by field", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"^\| `([a-z_.]+)` \|", table, re.MULTILINE))
    assert {key for key in real if key != "match"} | {f"match.{key}" for key in real["match"]} <= documented


# ------------------------------------------------------------------------------ bot side: serve


def served(lines: list[object], name: str = "random", seed: int | None = None) -> list[dict]:
    text = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    output, errors = io.StringIO(), io.StringIO()
    assert serve(name, seed, io.StringIO(text), output, errors) == 0
    return [json.loads(line) for line in output.getvalue().splitlines()]


def test_serve_answers_hello_and_act_with_a_legal_action() -> None:
    rng = random.Random(8)
    match = Match.new("mendikot-band", rng)
    match.apply(match.random_deal(rng))
    seat = match.to_act
    observation = match.observe(seat)
    replies = served(
        [
            {"type": "hello", "protocol": PROTOCOL, "seat": seat, "players": 4, "rules": "mendikot-band", "seed": 3},
            {"type": "act", "observation": observation.to_json()},
            {"type": "something-new"},
            {"type": "quit"},
            {"type": "act", "observation": observation.to_json()},  # after quit: never read
        ]
    )
    assert replies[0] == {"type": "ready", "protocol": PROTOCOL, "name": "random"}
    assert len(replies) == 2
    action = parse_action(replies[1]["action"])
    assert action in observation.legal_actions
    # the seed from hello makes the same choice as the bot made here with that seed
    assert action == RandomBot(3).act(observation)


def test_serve_reports_unreadable_messages_and_keeps_going() -> None:
    rng = random.Random(1)
    match = Match.new("pagat", rng)
    match.apply(match.random_deal(rng))
    observation = match.observe(match.to_act)
    replies = served(
        [
            "this is not json",
            "[1, 2]",
            {"type": "act", "observation": {"format": "dehla-observation/1"}},
            {"type": "act", "observation": observation.to_json()},
        ]
    )
    assert "error" in replies[0] and "JSON" in replies[0]["error"]
    assert "error" in replies[1]
    assert "error" in replies[2] and "observation." in replies[2]["error"]
    assert parse_action(replies[3]["action"]) in observation.legal_actions


def test_serve_turns_a_failing_bot_into_an_error_reply(monkeypatch: pytest.MonkeyPatch) -> None:
    from dehla.bots import base

    class Broken:
        name = "broken"

        def act(self, observation):
            raise RuntimeError("no idea")

    monkeypatch.setitem(base.BOTS, "broken", base.BotInfo("broken", 9, "test", "always fails", lambda seed: Broken()))
    rng = random.Random(1)
    match = Match.new("pagat", rng)
    match.apply(match.random_deal(rng))
    replies = served([{"type": "act", "observation": match.observe(match.to_act).to_json()}], name="broken")
    assert replies == [{"error": "bot 'broken' failed: RuntimeError: no idea"}]


def test_serve_rejects_an_unknown_bot_before_reading() -> None:
    with pytest.raises(DehlaError, match="unknown bot 'nobody'"):
        serve("nobody", None, io.StringIO(""), io.StringIO(), io.StringIO())


def test_dehla_bot_command_speaks_the_protocol() -> None:
    rng = random.Random(4)
    match = Match.new("taash", rng)
    match.apply(match.random_deal(rng))
    observation = match.observe(match.to_act)
    messages = [
        {"type": "hello", "protocol": PROTOCOL, "seat": observation.seat, "players": 4, "rules": "taash", "seed": 1},
        {"type": "act", "observation": observation.to_json()},
        {"type": "quit"},
    ]
    done = subprocess.run(
        [sys.executable, "-m", "dehla", "bot", "random"],
        input="".join(json.dumps(message) + "\n" for message in messages),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert replies[0]["type"] == "ready"
    assert parse_action(replies[1]["action"]) in observation.legal_actions


def test_dehla_bot_bad_names_exit_cleanly(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bot", "no-such-bot"]) == 1
    err = capsys.readouterr().err
    assert "unknown bot 'no-such-bot'" in err and "random" in err
    assert main(["bot", "cmd:python x.py"]) == 1
    assert "already an outside program" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main(["bot", "random", "--seed", "soon"])
    assert stop.value.code == 2
    assert "not a whole number" in capsys.readouterr().err


# ------------------------------------------------------------------------------ host side: CommandBot


def test_a_served_bot_plays_exactly_as_the_same_bot_in_process() -> None:
    """Over the protocol, 'random' with a seed makes the very choices it makes in this process."""
    seeds = [11, 12, 13, 14]
    outside = [
        make_player(BOT_SERVER + " random", seed) if seat % 2 == 0 else RandomBot(seed)
        for seat, seed in enumerate(seeds)
    ]
    try:
        played = play(Match.new("mendikot-band", random.Random(7)), outside, random.Random(7), hands=2)
    finally:
        close_bots(outside)
    inside = play(
        Match.new("mendikot-band", random.Random(7)), [RandomBot(seed) for seed in seeds], random.Random(7), hands=2
    )
    assert [played.hand_actions(hand) for hand in range(2)] == [inside.hand_actions(hand) for hand in range(2)]
    assert isinstance(outside[0], CommandBot) and outside[0].ready is not None
    assert outside[0].ready["name"] == "random"


@pytest.mark.parametrize("preset", ["pagat", "mendikot-band", "taash", "mendikot-6"])
def test_example_bot_plays_whole_hands_legally(preset: str) -> None:
    rng = random.Random(3)
    bots = [
        make_player(python_command(str(EXAMPLE)), seat) if seat % 2 == 1 else RandomBot(seat)
        for seat in range(PRESETS[preset].players)
    ]
    try:
        match = play(Match.new(preset, rng), bots, rng, hands=2)
    finally:
        close_bots(bots)
    assert len(match.results) == 2 or match.is_over


def test_hello_writes_out_the_rules_and_the_tricks_of_a_hand() -> None:
    from dehla.protocol.messages import hello_message
    from dehla.rules import OPTIONS, parse_rules

    for preset, rules in PRESETS.items():
        hello = hello_message(1, rules, 7)
        assert hello["rules"] == preset and set(hello["options"]) == {"preset", *OPTIONS}
        assert parse_rules(hello["options"]) == rules
        assert hello["tricks_per_hand"] == rules.tricks_per_hand == {4: 13, 6: 8, 8: 6}[rules.players]
        assert json.loads(json.dumps(hello)) == hello


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed (examples/simple_bot.js needs it)")
def test_javascript_example_bot_plays_a_hand_of_every_preset() -> None:
    """``cmd:node examples/simple_bot.js`` holds a whole team for a hand of every preset, legally.

    One program per seat serves every preset in turn (``reuse``): each game opens with a new ``hello``
    and no ``quit`` between them, as the arena does.
    """
    pids: set[int] = set()
    try:
        for number, (preset, rules) in enumerate(PRESETS.items()):
            rng = random.Random(number)
            bots = [
                make_player(f"cmd:node {JS_EXAMPLE}", seat, reuse=True) if seat % 2 == 1 else RandomBot(seat)
                for seat in range(rules.players)
            ]
            try:
                match = play(Match.new(preset, rng), bots, rng, hands=1)
                pids.update(bot._process.popen.pid for bot in bots if isinstance(bot, CommandBot) and bot._process)
            finally:
                close_bots(bots)
            assert len(match.results) == 1, preset
            assert isinstance(bots[1], CommandBot) and bots[1].ready == {
                "type": "ready",
                "protocol": PROTOCOL,
                "name": "simple-js",
            }
    finally:
        stop_idle_processes()
    assert len(pids) <= 4  # at most four seats at once (eight players): every other game reused a program


def test_make_player_cmd_errors_are_clear() -> None:
    with pytest.raises(DehlaError, match="the bot command is empty"):
        make_player("cmd:")
    with pytest.raises(DehlaError, match="no program 'no-such-program-xyz' found"):
        make_player("cmd:no-such-program-xyz --fast")
    with pytest.raises(DehlaError, match="cannot read the bot command"):
        make_player("cmd:python 'unclosed")
    with pytest.raises(DehlaError, match="or cmd:COMMAND"):
        make_player("nobody")


def test_make_player_seats_registered_bots_and_programs_and_make_bot_runs_no_program() -> None:
    assert isinstance(make_player("random", 1), RandomBot)
    program = make_player(python_command(str(EXAMPLE)), 1, move_timeout=2.5, reuse=True)
    assert isinstance(program, CommandBot) and program.move_timeout == 2.5 and program.reuse
    with pytest.raises(DehlaError, match=r"outside program, not a registered bot: seat it with .*make_player"):
        make_bot(python_command(str(EXAMPLE)), 1)


# ------------------------------------------------------------------------------ misbehaving bots

PRELUDE = """
import json, os, sys, time
moves = 0
def send(obj):
    sys.stdout.write(json.dumps(obj) + "\\n"); sys.stdout.flush()
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        send({"type": "ready", "name": "misbehaving"})
        continue
    if message["type"] == "quit":
        break
    obs = message["observation"]
    legal = obs["legal_actions"]
"""

MISBEHAVIOURS = {
    "illegal": """
    wrong = [r + s for s in "SHDC" for r in ["2","3","4","5","6","7","8","9","10","J","Q","K","A"]
             if r + s not in legal]
    send({"action": wrong[0]})
""",
    "unreadable": """
    print("I think I will play the ten of hearts", flush=True)
""",
    "unreadable-json": """
    send({"move": legal[0]})
""",
    "unreadable-action": """
    send({"action": "fold"})
""",
    "error": """
    send({"error": "I give up"})
""",
    "timeout": """
    time.sleep(60)
""",
    "died": """
    sys.stderr.write("boom: something broke\\n"); sys.stderr.flush()
    sys.exit(3)
""",
}


def misbehaving_bot(tmp_path: Path, kind: str, after_moves: int = 0) -> str:
    """A bot that plays legally ``after_moves`` times, then misbehaves as ``kind``."""
    body = textwrap.indent(textwrap.dedent(MISBEHAVIOURS[kind]), "    ")
    script = (
        PRELUDE
        + f"""
    moves += 1
    if moves <= {after_moves}:
        send({{"action": legal[0]}})
        continue
"""
        + body
    )
    path = tmp_path / f"bot_{kind.replace('-', '_')}.py"
    path.write_text(script, encoding="utf-8")
    return python_command(str(path))


@pytest.mark.parametrize(
    ("kind", "expected", "said"),
    [
        ("illegal", "illegal", "not legal now"),
        ("unreadable", "unreadable", "I think I will play the ten of hearts"),
        ("unreadable-json", "unreadable", '{"move"'),
        ("unreadable-action", "unreadable", "fold"),
        ("error", "error", "I give up"),
        ("timeout", "timeout", None),
        ("died", "died", None),
    ],
)
def test_a_misbehaving_bot_is_reported_with_the_position(tmp_path: Path, kind: str, expected: str, said) -> None:
    name = misbehaving_bot(tmp_path, kind, after_moves=3)
    rng = random.Random(6)
    bots = [RandomBot(seat) for seat in range(4)]
    bots[1] = make_player(name, 5)
    bots[1].move_timeout = 1.0
    match = Match.new("mendikot", rng)
    start = time.monotonic()
    with pytest.raises(BotFailure) as caught:
        play(match, bots, rng)
    elapsed = time.monotonic() - start
    close_bots(bots)
    failure = caught.value
    assert failure.kind == expected
    assert failure.seat == 1 and failure.team == 1
    assert failure.position["hand"] == 0
    assert failure.position["trick"] == 4  # three legal moves first, one per trick
    assert "seat 1 (team 1), hand 0, trick 4" in str(failure)
    if said is not None:
        assert said in (str(failure) if kind == "illegal" else failure.said)
    assert elapsed < 20  # the host never hangs
    if kind == "timeout":
        assert "within 1 second" in str(failure)
    if kind == "died":
        assert "exited with status 3" in str(failure) and "boom: something broke" in str(failure)
    # the program is gone, and asking again repeats the failure at once
    process = bots[1]._process
    assert process is None or process.popen.poll() is not None
    with pytest.raises(BotFailure):
        bots[1].act(match.observe(1))


def test_a_bot_that_writes_an_extra_line_is_told_it_was_left_over_from_the_previous_move(tmp_path: Path) -> None:
    script = tmp_path / "chatty.py"
    script.write_text(
        PRELUDE
        + textwrap.indent(
            textwrap.dedent("""
        send({"action": legal[0]})
        send({"action": legal[0]})  # one line too many
    """),
            "    ",
        ),
        encoding="utf-8",
    )

    class Slow(RandomBot):
        """Gives the host's reader time to receive the extra line before the program's next move is asked for."""

        def act(self, observation):
            time.sleep(0.05)
            return super().act(observation)

    rng = random.Random(6)
    bots = [Slow(seat) for seat in range(4)]
    bots[1] = make_player(python_command(str(script)), 5)
    try:
        with pytest.raises(BotFailure) as caught:
            play(Match.new("mendikot", rng), bots, rng)
    finally:
        close_bots(bots)
    failure = caught.value
    assert failure.kind == "unreadable" and failure.seat == 1
    assert "left over from the previous move" in str(failure)
    assert failure.position["trick"] == 2  # its first move was answered; the extra line is found at the second


def test_a_bot_that_never_starts_or_never_answers_hello(tmp_path: Path) -> None:
    rng = random.Random(1)
    match = Match.new("mendikot", rng)
    match.apply(match.random_deal(rng))
    observation = match.observe(match.to_act)
    quitter = tmp_path / "quitter.py"
    quitter.write_text("import sys\nsys.exit(0)\n", encoding="utf-8")
    with pytest.raises(BotFailure, match="exited with status 0 instead of answering hello") as caught:
        CommandBot([sys.executable, str(quitter)]).act(observation)
    assert caught.value.kind == "died"
    sleeper = tmp_path / "sleeper.py"
    sleeper.write_text("import time\ntime.sleep(60)\n", encoding="utf-8")
    bot = CommandBot([sys.executable, str(sleeper)], start_timeout=0.5)
    with pytest.raises(BotFailure, match=r"did not answer hello within 0\.5 seconds"):
        bot.act(observation)
    bot.close()
    refuser = tmp_path / "refuser.py"
    refuser.write_text('print(\'{"error": "I only play chess"}\', flush=True)\nimport time\ntime.sleep(60)\n')
    with pytest.raises(BotFailure, match="refused to start: I only play chess"):
        CommandBot([sys.executable, str(refuser)]).act(observation)


@pytest.mark.skipif(os.name != "posix", reason="process groups are POSIX")
def test_a_timed_out_bot_is_killed_with_its_children(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    script = tmp_path / "spawner.py"
    script.write_text(
        PRELUDE
        + textwrap.indent(
            textwrap.dedent(
                f"""
                import subprocess
                child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
                open({str(pid_file)!r}, "w").write(str(child.pid))
                time.sleep(60)
                """
            ),
            "    ",
        ),
        encoding="utf-8",
    )
    rng = random.Random(1)
    match = Match.new("mendikot", rng)
    match.apply(match.random_deal(rng))
    bot = CommandBot([sys.executable, str(script)], move_timeout=1.0)
    with pytest.raises(BotFailure, match="did not answer a move"):
        bot.act(match.observe(match.to_act))
    child = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        # a killed child that is not yet reaped by init still answers; check its state
        try:
            if Path(f"/proc/{child}/stat").read_text().split()[2] == "Z":
                break
        except OSError:
            break
        time.sleep(0.05)
    else:
        pytest.fail("the bot's child process is still running")


def test_checked_act_holds_in_process_bots_to_the_rules() -> None:
    rng = random.Random(2)
    match = Match.new("pagat", rng)
    match.apply(match.random_deal(rng))
    observation = match.observe(match.to_act)

    class Cheater:
        name = "cheater"

        def act(self, observation):
            return parse_action("reveal")

    class Crasher:
        name = "crasher"

        def act(self, observation):
            return 1 / 0

    with pytest.raises(BotFailure, match="not legal now") as caught:
        checked_act(Cheater(), observation)
    assert caught.value.kind == "illegal" and caught.value.said == "reveal"
    assert "calling trump" in str(caught.value)
    with pytest.raises(BotFailure, match="raised ZeroDivisionError") as caught:
        checked_act(Crasher(), observation)
    assert caught.value.kind == "crashed"
    assert caught.value.to_json()["seat"] == observation.seat


def test_reused_programs_start_a_new_game_on_hello() -> None:
    """The arena keeps a program between games; hello resets it, so results do not change."""
    rng = random.Random(9)
    match = Match.new("mendikot", rng)
    match.apply(match.random_deal(rng))
    observation = match.observe(match.to_act)
    first = CommandBot(python_command(str(EXAMPLE))[4:], seed=1, reuse=True)
    action = first.act(observation)
    pid = first._process.popen.pid
    first.close()
    second = CommandBot(python_command(str(EXAMPLE))[4:], seed=1, reuse=True)
    assert second.act(observation) == action
    assert second._process.popen.pid == pid
    second.close()
    stop_idle_processes()
    assert second._process is None


def test_dehla_play_reports_a_failing_outside_opponent(tmp_path: Path) -> None:
    """The opponents' program answers garbage at its first move; with no input the person never has to act
    unless they call trump first (then the match is abandoned at once, and the next seed is tried)."""
    name = misbehaving_bot(tmp_path, "unreadable")
    for seed in range(12):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "dehla",
                "play",
                "--rules",
                "pagat",
                "--seed",
                str(seed),
                "--opponents",
                name,
                "--save",
                str(tmp_path / "game.json"),
            ],
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
        assert "Traceback" not in done.stderr
        if "Match abandoned" in done.stdout:
            continue
        assert done.returncode == 1
        assert "is not a JSON object on one line" in done.stdout
        assert "I think I will play the ten of hearts" in done.stdout
        assert "hand 0, " in done.stdout
        assert "team 1 loses" in done.stdout and "Your team wins!" in done.stdout
        assert (tmp_path / "game.json").exists()
        return
    pytest.fail("no seed let the opponents act first")


def test_dehla_play_lists_bots_and_rejects_unknown_ones(capsys: pytest.CaptureFixture[str]) -> None:
    from dehla.bots import BOTS, bot_names

    assert main(["play", "--list-bots"]) == 0
    out = capsys.readouterr().out
    for name in bot_names(for_people=True):
        assert f"{name}" in out and f"level {BOTS[name].level}" in out
    assert "cheat" not in out
    assert "cmd:COMMAND" in out
    assert main(["play", "--partner", "grandmaster"]) == 1
    assert "unknown bot 'grandmaster'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["play", "--move-timeout", "-1"])
    assert "positive number of seconds" in capsys.readouterr().err
