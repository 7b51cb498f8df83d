"""The learned value: its encoding, the weights shipped, training data, and the trick search the bots do with it."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dehla.bots.heuristic import HeuristicBot
from dehla.cards import Suit, mask_of, parse_cards
from dehla.cli.main import main
from dehla.engine.state import Match, Phase
from dehla.errors import DehlaError
from dehla.features.observation import RULES_FEATURES
from dehla.features.position import (
    FEATURES,
    MODEL_ONLY_FLAGS,
    NOT_IN_MODEL,
    RAW_FIELDS,
    RULES_FLAGS,
    encode_raw,
    raw_of,
    rename_suits,
)
from dehla.learn.data import SOLVER, UNLABELLED, Dataset, match_of, sorted_by_hand
from dehla.learn.fit import held_out
from dehla.learn.labels import DataTask, backward_label, label_task
from dehla.learn.value import ValueModel, default_model, model_leaves, supported, trick_values
from dehla.rules import PRESETS
from dehla.solver import Solver

_F = {name: index for index, name in enumerate(RAW_FIELDS)}


def _play_to(preset: str, seed: int, tricks: int, extra: int = 0) -> Match | None:
    """Random play of a first hand to ``tricks`` finished tricks and ``extra`` cards more (None if it ended)."""
    rng = random.Random(seed)
    match = Match.new(preset, rng)
    match.apply(match.random_deal(rng))
    while match.phase in (Phase.CALL, Phase.HIDE, Phase.PLAY):
        if match.phase is Phase.PLAY and len(match.tricks) == tricks and len(match.current_trick) == extra:
            return match
        match.apply(rng.choice(match.legal_actions()))
    return None


def _rotated(row: list[int], turn: int) -> list[int]:
    """The same position with every seat number moved on by ``turn``."""
    out = list(row)
    for name in ("mover", "dealer", "chooser", "next_collector"):
        if row[_F[name]] >= 0:
            out[_F[name]] = (row[_F[name]] + turn) % 4
    for seat in range(4):
        out[_F["hand0"] + (seat + turn) % 4] = row[_F["hand0"] + seat]
    if turn % 2:
        out[_F["captured0"]], out[_F["captured1"]] = row[_F["captured1"]], row[_F["captured0"]]
        out[_F["won0"]], out[_F["won1"]] = row[_F["won1"]], row[_F["won0"]]
    return out


@settings(max_examples=30, deadline=None)
@given(
    preset=st.sampled_from(["pagat", "pagat-cut", "taash", "mendikot", "mendikot-band"]),
    seed=st.integers(0, 10_000),
    tricks=st.integers(0, 11),
    turn=st.integers(1, 3),
)
def test_a_position_reads_the_same_from_the_mover_whatever_the_seat_numbers(
    preset: str, seed: int, tricks: int, turn: int
) -> None:
    match = _play_to(preset, seed, tricks)
    if match is None:
        return
    row = raw_of(match.hand_state())
    rules = PRESETS[preset]
    same = encode_raw(np.asarray([row, _rotated(row, turn)]), rules)
    assert same.shape == (2, FEATURES)
    assert np.array_equal(same[0], same[1])


def test_trump_comes_first_in_each_seats_cards() -> None:
    for seed in range(40):
        match = _play_to("mendikot", seed, 6)
        if match is None or match.trump is None:
            continue
        state = match.hand_state()
        assert state.to_act is not None
        features = encode_raw(np.asarray([raw_of(state)]), match.rules)[0]
        trumps = [card % 13 for card in match.hand_of(state.to_act) if card // 13 == match.trump]
        assert sorted(np.flatnonzero(features[:13]).tolist()) == sorted(trumps)
        return
    pytest.fail("no position with trump set")


def test_positions_inside_a_trick_are_refused() -> None:
    match = _play_to("pagat", 1, 2, extra=1)
    assert match is not None
    with pytest.raises(Exception, match="between tricks"):
        raw_of(match.hand_state())


def test_the_shipped_model_is_small_and_covers_the_four_player_families() -> None:
    model = default_model()
    assert model is not None
    for name in ("pagat", "pagat-cut", "taash", "taash-b2b", "mendikot", "mendikot-band", "mendikot-open"):
        assert model.covers(PRESETS[name])
    assert not supported(PRESETS["mendikot-6"])
    assert not model.covers(PRESETS["mendikot-6"])
    path = Path(__file__).parent.parent / "src" / "dehla" / "learn" / "models" / "value.npz"
    assert path.stat().st_size < 5_000_000


def test_saved_weights_load_to_the_same_answers(tmp_path: Path) -> None:
    model = default_model()
    assert model is not None
    model.save(tmp_path / "copy.npz")
    copy = ValueModel.load(tmp_path / "copy.npz")
    rows = []
    for seed in range(6):
        match = _play_to("taash", seed, 3)
        if match is not None:
            rows.append(raw_of(match.hand_state()))
    margin, tens = model.predict_rows(np.asarray(rows), PRESETS["taash"])
    again, tens_again = copy.predict_rows(np.asarray(rows), PRESETS["taash"])
    assert np.array_equal(margin, again) and np.array_equal(tens, tens_again)
    assert np.all(np.abs(margin) <= 80) and np.all((tens >= 0) & (tens <= 4))


def test_a_damaged_weights_file_gets_a_clear_message(tmp_path: Path) -> None:
    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"not a model")
    with pytest.raises(Exception, match="cannot read the value model"):
        ValueModel.load(broken)


@pytest.mark.parametrize("preset", ["pagat", "taash", "mendikot", "mendikot-band"])
def test_trick_search_with_exact_leaves_agrees_with_the_solver(preset: str) -> None:
    """Best play to the trick's end, each ending valued exactly, is the exact value of each action."""
    solver = Solver(table_bits=16)

    def exact(leaves: list[Match], team: int) -> list[float]:
        values = []
        for leaf in leaves:
            margin = solver.results(leaf).margin
            values.append(float(margin if team == 0 else -margin))
        return values

    checked = 0
    for seed in range(30):
        match = _play_to(preset, seed, 8, extra=seed % 4)
        if match is None or len(match.legal_actions()) < 2:
            continue
        seat = match.to_act
        assert seat is not None
        team = seat % 2
        results = solver.results(match)
        searched = trick_values(match, team, exact)
        assert searched == {action: float(results.for_team(action, team)) for action in results.actions}
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("preset", ["pagat", "mendikot-band"])
def test_a_trump_call_or_hide_is_valued_at_the_position_it_leads_to(preset: str) -> None:
    rng = random.Random(3)
    match = Match.new(preset, rng)
    match.apply(match.random_deal(rng))
    assert match.phase in (Phase.CALL, Phase.HIDE)
    model = default_model()
    assert model is not None
    leaves: list[Match] = []
    for action in match.legal_actions():
        child = match.clone()
        child.apply(action)
        assert child.phase is Phase.PLAY and not child.tricks and not child.current_trick
        leaves.append(child)
    values = model_leaves(model)
    expected = dict(zip(match.legal_actions(), values(leaves, 1)))
    assert trick_values(match, 1, values) == expected


def test_training_data_is_reproducible_and_labelled_for_the_mover() -> None:
    task = DataTask("pagat", 7, 2, 0, 9, 12, 1_000_000, 0.2, HeuristicBot)
    first = label_task(task)
    second = label_task(task)
    assert len(first) > 0
    for name in ("rows", "preset", "hand", "trick", "margin", "tens"):
        assert np.array_equal(getattr(first, name), getattr(second, name))
    assert set(first.margin.tolist()) <= {-1, 1}  # Pagat: one point, whoever wins
    assert np.all((first.tens >= 0) & (first.tens <= 4))
    assert np.all((first.trick >= 9) & (first.trick <= 12))


def test_train_rejects_bad_options_with_a_message(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "value", "--families", "bridge"]) == 1
    assert "unknown families: bridge" in capsys.readouterr().err
    assert main(["train", "value", "--backward-to", "3"]) == 1
    assert "--backward-to" in capsys.readouterr().err
    assert main(["train", "value", "--part", "two"]) == 1
    assert "--part must be K/N" in capsys.readouterr().err
    assert main(["train", "value", "--from-trick", "9", "--to-trick", "3"]) == 1
    assert "--from-trick" in capsys.readouterr().err


def test_renaming_side_suits_keeps_trump_and_every_seats_count() -> None:
    from dehla.learn.fit import permute_suits

    data = label_task(DataTask("mendikot", 3, 2, 0, 8, 12, 1_000_000, 0.0, HeuristicBot))
    renamed = permute_suits(data, np.random.default_rng(0))
    trump = data.rows[:, _F["trump"]]
    for field in ("hand0", "hand1", "hand2", "hand3", "centre", "captured0", "captured1"):
        before, after = data.rows[:, _F[field]], renamed.rows[:, _F[field]]
        for i in range(len(data)):
            assert int(before[i]).bit_count() == int(after[i]).bit_count()
            if trump[i] >= 0:
                suit = 0x1FFF << (13 * int(trump[i]))
                assert int(before[i]) & suit == int(after[i]) & suit
    assert np.array_equal(data.margin, renamed.margin)


@pytest.mark.parametrize("preset", ["pagat", "taash", "mendikot", "mendikot-band"])
def test_the_model_answers_the_same_for_every_renaming_of_the_suits_that_keeps_trump(preset: str) -> None:
    """The game does not tell suits apart: the suit average makes the model's answer the same for a position
    and for any renaming of its suits that keeps trump (one network call alone is not symmetric)."""
    model = default_model()
    assert model is not None and model.suit_average
    rows = []
    for seed in range(12):
        match = _play_to(preset, seed, 4)
        if match is not None:
            rows.append(raw_of(match.hand_state()))
    raw = np.asarray(rows, dtype=np.int64)
    rng = np.random.default_rng(1)
    perms = np.zeros((len(raw), 4), dtype=np.int64)
    for i, trump in enumerate(raw[:, _F["trump"]]):
        others = [suit for suit in range(4) if suit != max(int(trump), 0)]
        perms[i, max(int(trump), 0)] = max(int(trump), 0)
        perms[i, others] = rng.permutation(others)
    renamed = rename_suits(raw, perms)
    assert not np.array_equal(renamed, raw)
    rules = PRESETS[preset]
    margin, tens = model.predict_rows(raw, rules)
    margin2, tens2 = model.predict_rows(renamed, rules)
    scale = max(1.0, float(np.abs(margin).max()))
    assert np.allclose(margin, margin2, atol=1e-4 * scale) and np.allclose(tens, tens2, atol=1e-4)
    single = ValueModel(model.nets, model.meta, suit_average=False)
    one, _ = single.predict_rows(raw, rules)
    assert not np.allclose(one, single.predict_rows(renamed, rules)[0])  # the average is what makes it symmetric


def test_one_command_makes_the_data_and_trains_a_model_that_play_can_load(tmp_path: Path) -> None:
    # a tiny run of the whole pipeline: heuristic hands, solver labels, the MLP, the weights file, the report
    model_file, report_file = tmp_path / "model.npz", tmp_path / "report.json"
    assert (
        main(
            [
                "train",
                "value",
                "--hands",
                "6",
                "--families",
                "pagat",
                "--from-trick",
                "8",
                "--epochs",
                "3",
                "--hidden",
                "16",
                "--seed",
                "3",
                "--out",
                str(model_file),
                "--report",
                str(report_file),
            ]
        )
        == 0
    )
    model = ValueModel.load(model_file)
    assert model.covers(PRESETS["pagat"])
    rows = [raw_of(match.hand_state()) for seed in range(4) if (match := _play_to("pagat", seed, 8)) is not None]
    margin, tens = model.predict_rows(np.asarray(rows), PRESETS["pagat"])
    assert margin.shape == (len(rows),) and np.all(np.abs(margin) <= 1) and np.all((tens >= 0) & (tens <= 4))
    by_trick = json.loads(report_file.read_text())["solver"]["pagat"]  # held-out accuracy for each trick labelled
    assert by_trick and set(by_trick) <= {str(trick) for trick in range(8, 13)}
    assert all(0 <= row["result_accuracy"] <= 1 and row["positions"] > 0 for row in by_trick.values())


def test_a_kept_history_rebuilds_its_position() -> None:
    for preset in ("pagat-cut", "taash", "mendikot-band", "mendikot-band-auto", "mendikot-open"):
        data = label_task(DataTask(preset, 5, 2, 0, 11, 12, 1_000_000, 0.2, HeuristicBot, backward_to=0))
        kept = np.flatnonzero(data.source == UNLABELLED)
        assert set(data.trick[kept].tolist()) == set(range(11))
        assert np.all(data.history[data.source == SOLVER] == -1)
        for i in kept:
            assert raw_of(match_of(data.history[i], preset).hand_state()) == data.rows[i].tolist()


def test_solved_positions_keep_their_history_when_asked() -> None:
    for preset in ("pagat", "taash", "mendikot-band"):
        task = DataTask(preset, 5, 2, 0, 9, 12, 1_000_000, 0.2, HeuristicBot)
        asked = label_task(dataclasses.replace(task, keep_history=True))
        plain = label_task(task)
        assert np.array_equal(asked.rows, plain.rows) and np.array_equal(asked.margin, plain.margin)
        assert len(asked) and np.all(asked.source == SOLVER)
        for i in range(len(asked)):
            assert raw_of(match_of(asked.history[i], preset).hand_state()) == asked.rows[i].tolist()


@pytest.mark.parametrize("preset", ["pagat", "taash", "mendikot"])
def test_a_backward_label_one_trick_from_the_end_is_the_solvers_value(preset: str) -> None:
    # the search of the last trick reaches the end of the hand, where no model is asked
    model = default_model()
    assert model is not None
    solver = Solver(table_bits=16)
    checked = 0
    for seed in range(12):
        match = _play_to(preset, seed, 12)
        if match is None:
            continue
        seat = match.to_act
        assert seat is not None
        exact = solver.value(match).net
        margin, _ = backward_label(match, model)
        assert margin == (exact if seat % 2 == 0 else -exact)
        checked += 1
    assert checked >= 3


def test_a_backward_label_is_the_best_leads_value_with_the_model_at_the_leaves() -> None:
    model = default_model()
    assert model is not None
    match = _play_to("mendikot", 3, 2)
    assert match is not None
    seat = match.to_act
    assert seat is not None
    margin, tens = backward_label(match, model)
    assert margin == max(trick_values(match, seat % 2, model_leaves(model)).values())
    assert 0 <= tens <= 4


def test_backward_training_labels_the_early_tricks_from_the_model_and_reports_them_apart(tmp_path: Path) -> None:
    report_file, data_file = tmp_path / "report.json", tmp_path / "data.npz"
    args = ["train", "value", "--hands", "8", "--families", "pagat", "--from-trick", "10", "--backward-to", "8",
            "--epochs", "3", "--hidden", "16", "--seed", "4", "--holdout", "0.4", "--data", str(data_file),
            "--report", str(report_file)]  # fmt: skip
    assert main(args) == 0
    report = json.loads(report_file.read_text())
    assert set(report["solver"]["pagat"]) <= {"10", "11", "12"}
    assert set(report["backward"]["pagat"]) == {"8", "9"}  # checked against the backward labels, not the solver
    data = Dataset.load(data_file)  # the data file keeps the solver's labels, the rest waiting for a model
    assert set(data.trick[data.source == UNLABELLED].tolist()) == {8, 9}
    assert set(data.trick[data.source == SOLVER].tolist()) <= {10, 11, 12}
    assert main([*args, "--out", str(tmp_path / "again.npz")]) == 0  # the same from the data file
    assert json.loads(report_file.read_text()) == report


def test_data_in_parts_is_the_whole_data(tmp_path: Path) -> None:
    common = ["train", "value", "--hands", "60", "--families", "taash", "--from-trick", "11", "--seed", "6",
              "--data-only"]  # fmt: skip
    assert main([*common, "--data", str(tmp_path / "all.npz")]) == 0
    assert main([*common, "--part", "1/2", "--data", str(tmp_path / "one.npz")]) == 0
    assert main([*common, "--part", "2/2", "--data", str(tmp_path / "two.npz")]) == 0
    whole = Dataset.load(tmp_path / "all.npz")
    parts = sorted_by_hand(Dataset.concat([Dataset.load(tmp_path / "one.npz"), Dataset.load(tmp_path / "two.npz")]))
    for name in ("rows", "hand", "trick", "margin", "tens", "source"):
        assert np.array_equal(getattr(whole, name), getattr(parts, name))
    assert main([*common, "--part", "3/2"]) == 1


def test_a_fit_can_start_from_a_models_weights_of_the_same_shape(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, first, second = tmp_path / "data.npz", tmp_path / "first.npz", tmp_path / "second.npz"
    common = ["train", "value", "--hands", "6", "--families", "mendikot", "--from-trick", "9", "--epochs", "2",
              "--seed", "8", "--data", str(data)]  # fmt: skip
    assert main([*common, "--hidden", "16", "--out", str(first)]) == 0
    assert main([*common, "--hidden", "16", "--init", str(first), "--out", str(second)]) == 0
    rows = np.asarray(Dataset.load(data).rows[:5])
    before = ValueModel.load(first).predict_rows(rows, PRESETS["mendikot"])[0]
    after = ValueModel.load(second).predict_rows(rows, PRESETS["mendikot"])[0]
    assert after.shape == before.shape and not np.array_equal(after, before)  # fitted on, not copied
    capsys.readouterr()
    assert main([*common, "--hidden", "8", "--init", str(first)]) == 1
    assert "same --hidden" in capsys.readouterr().err


def test_a_part_of_the_data_holds_out_the_same_hands_as_the_whole() -> None:
    # A model fitted on part of the data and then on the whole must never have trained on a hand the whole
    # holds out, or its held-out accuracy is measured on hands it has seen.
    count = 4000
    whole = Dataset(
        rows=np.zeros((count, 1), dtype=np.int64),
        preset=np.zeros(count, dtype=np.int64),
        hand=np.repeat(np.arange(count // 4), 4),
        trick=np.tile(np.arange(4), count // 4),
        margin=np.zeros(count),
        tens=np.zeros(count),
        seconds=np.zeros(count),
        source=np.zeros(count, dtype=np.int8),
        history=np.zeros((count, 1), dtype=np.int8),
    )
    held = held_out(whole, 0.15, 3)
    for hand in np.unique(whole.hand):
        assert len(set(held[whole.hand == hand].tolist())) == 1  # whole hands
    assert 0.11 < held.mean() < 0.19
    part = (whole.hand % 3 == 1) | (whole.hand > 700)
    assert np.array_equal(held_out(whole.subset(part), 0.15, 3), held[part])
    assert not np.array_equal(held_out(whole, 0.15, 4), held)  # another seed, another split


def test_the_ten_features_say_whose_team_holds_each_ten_the_cards_above_it_and_who_can_ruff() -> None:
    """Hearts are trump (first); seat 0 moves.  Per suit: ten mine/theirs, higher cards mine/theirs, ruffers."""
    hands = ["10S KS 3D 2C", "AS 10D 5H 4C", "QS 9D JH 10C", "2S AD KD AH"]
    row = [0] * len(RAW_FIELDS)
    for seat, text in enumerate(hands):
        row[_F["hand0"] + seat] = mask_of(parse_cards(text.split()))
    row[_F["trump"]] = int(Suit.H)
    row[_F["chooser"]] = row[_F["next_collector"]] = -1
    row[_F["tricks_played"]] = 9
    features = encode_raw(np.asarray([row]), PRESETS["mendikot"])[0]
    tail = features[FEATURES - 28 :]
    per_suit = tail[:24].reshape(4, 6).tolist()
    assert per_suit == [
        [0, 0, 0.25, 0.25, 0, 0],  # hearts (trump): no ten left; JH against AH; nobody ruffs trump
        [1, 0, 0.5, 0.25, 0, 0],  # spades: our 10S under our KS QS and their AS
        [0, 1, 0, 0.5, 0, 0],  # diamonds: their 10D, their AD KD above it
        [1, 0, 0, 0, 0, 1],  # clubs: our 10C, nothing above; seat 3 is void in clubs with a trump
    ]
    control, winners = tail[24:26].tolist(), tail[26:28].tolist()
    assert control == pytest.approx([0, 1 / 13])  # their AH is above every trump of ours
    assert winners == pytest.approx([1 / 13, 4 / 13])  # ours: 10C; theirs: AS, AH, AD KD


def test_a_model_of_an_earlier_encoding_is_refused_for_play_and_widened_to_start_a_fit(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    narrow = FEATURES - 28
    layers = [(rng.normal(size=(narrow, 8)).astype(np.float32), rng.normal(size=8).astype(np.float32)),
              (rng.normal(size=(8, 2)).astype(np.float32), rng.normal(size=2).astype(np.float32))]  # fmt: skip
    path = tmp_path / "old.npz"
    ValueModel.from_arrays({"all": layers}, {"format": "dehla-value/1", "features": narrow}).save(path)
    with pytest.raises(DehlaError, match=f"reads {narrow} inputs and this version encodes {FEATURES}"):
        ValueModel.load(path)
    widened = ValueModel.load(path, widen=True)
    x = rng.random((5, FEATURES)).astype(np.float32)
    hidden = np.maximum(x[:, :narrow] @ layers[0][0] + layers[0][1], 0)
    expected = np.clip((hidden @ layers[1][0] + layers[1][1])[:, 0], -1, 1)
    margin, _ = widened.predict_features(x, PRESETS["pagat"])
    assert margin == pytest.approx(expected, abs=1e-5)  # the inputs added since have no weight yet


def test_the_models_rules_options_are_the_observations_by_name_and_cannot_drift() -> None:
    # Each option the observation tells a learner is read by the model or listed as left out of it, and each
    # option the model reads is the observation's or listed as the model's own: a new RULES_FEATURES pair fails here.
    assert set(RULES_FEATURES) == (set(RULES_FLAGS) - set(MODEL_ONLY_FLAGS)) | set(NOT_IN_MODEL)
    assert not set(NOT_IN_MODEL) & set(RULES_FLAGS)
    assert not set(MODEL_ONLY_FLAGS) & set(RULES_FEATURES)
    # The order the shipped weights were fitted with.
    assert RULES_FLAGS == (
        ("collection", "centre"), ("scoring", "pagat"), ("scoring", "taash"), ("scoring", "mendikot"),
        ("trump", "called"), ("trump", "cut"), ("trump", "hidden"), ("trump", "hidden_auto"), ("trump", "open_draw"),
        ("staged_deal", True), ("streak_resets", True), ("trick_minimum", True),
    )  # fmt: skip


#: The shipped model's estimates (margin, tens) after four random tricks of a seeded first hand, as they were
#: before the model's rules options were derived from the observation's.
_ESTIMATES = {
    ("pagat", 1): (0.9985871315002441, 3.9357388019561768),
    ("pagat-cut", 1): (-0.980370819568634, 0.6332719326019287),
    ("pagat-cut", 2): (0.18703006207942963, 1.7428474426269531),
    ("taash", 1): (-56.7992057800293, 1.0550569295883179),
    ("mendikot", 1): (0.39842769503593445, 2.128513813018799),
    ("mendikot-band", 1): (-0.7374758720397949, 1.2596333026885986),
    ("pagat-streak-kept", 1): (0.9962142109870911, 3.844742774963379),
}


def test_the_models_estimates_of_fixed_positions_are_unchanged() -> None:
    model = default_model()
    assert model is not None
    for (name, seed), (margin, tens) in _ESTIMATES.items():
        rules = dataclasses.replace(PRESETS["pagat"], streak_resets=False) if name.endswith("kept") else PRESETS[name]
        rng = random.Random(seed)
        match = Match.new(rules, rng)
        match.apply(match.random_deal(rng))
        while not (match.phase is Phase.PLAY and len(match.tricks) == 4 and not match.current_trick):
            match.apply(rng.choice(match.legal_actions()))
        estimate = model.estimate(match.hand_state())
        assert estimate.margin == pytest.approx(margin, rel=1e-6), (name, seed)
        assert estimate.tens == pytest.approx(tens, rel=1e-6), (name, seed)
