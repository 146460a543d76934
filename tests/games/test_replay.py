"""games.replay: what the replay page shows, without a database or a browser."""

from __future__ import annotations

import random

import pytest

from analysis.solver.hindsight import double_dummy
from analysis.solver.judgement import decision_accuracy
from analysis.solver.review import Review, ReviewParams, review_hand
from games import replay as replay_module
from games.engine.cards import Seat
from games.engine.game import Game
from games.engine.hand import Discard, Play
from games.engine.record import parse_record
from games.engine.rules import PRESETS
from games.replay import (
    Params,
    Replay,
    action_token,
    build_page,
    build_summary,
    page_url,
    parse_params,
    parse_token,
    solver_finish,
    with_solver_moves,
)
from games.table import places
from tests.conftest import SPEC_RECORD

from .replay_hands import record, review

BASE = "/hands/7/"


def page(replay: Replay, **query: str):
    params, notes = parse_params(query, Seat.S)
    params, message = with_solver_moves(replay, params)
    return build_page(replay, params, base=BASE, default_seat=Seat.S, notes=[*notes, message])


@pytest.fixture(scope="module")
def replay() -> Replay:
    return Replay(record(), Review.from_json(review()), double_dummy(parse_record(record())))


DECISIONS = review()["decisions"]
"""The review as stored: what the page must show of it."""


def first_marked(replay: Replay, seat: Seat, cls: str) -> int:
    assert replay.review is not None
    return next(
        i for i, d in enumerate(DECISIONS) if d["seat"] == seat.value and d.get("class") == cls
    )


# -- parameters and URLs -----------------------------------------------------------------------


def test_nonsense_parameters_become_defaults_with_a_message() -> None:
    params, notes = parse_params({"step": "abc", "seat": "Q", "view": "x"}, Seat.E)
    assert (params.step, params.seat, params.view) == (0, Seat.E, "all")
    assert len(notes) == 2 and "abc" in notes[0] and "Q" in notes[1]


def test_urls_leave_out_defaults_and_always_keep_the_share_token() -> None:
    params = Params(3, Seat.S, "all", (), "tok")
    assert page_url(BASE, params, Seat.S) == "/hands/7/?step=3&share=tok"
    url = page_url(BASE, params, Seat.S, seat=Seat.W, view="seat", line=("9S", "pass"))
    assert url == "/hands/7/?step=3&seat=W&view=seat&line=9S.pass&share=tok"


def test_every_action_of_random_hands_survives_its_url_token() -> None:
    rng = random.Random(5)
    for seed in range(30):
        state = Game(PRESETS["standard"], seed=seed).new_hand()
        while not state.is_terminal:
            for action in state.legal_actions():
                assert parse_token(action_token(action)) == action
            state.apply(rng.choice(state.legal_actions()))


def test_the_viewer_sits_at_the_bottom_with_the_partner_opposite() -> None:
    assert places(Seat.S) == [
        (Seat.S, "bottom"),
        (Seat.W, "left"),
        (Seat.N, "top"),
        (Seat.E, "right"),
    ]
    assert dict(places(Seat.E))[Seat.W] == "top"


# -- stepping -----------------------------------------------------------------------------------


def test_each_step_shows_the_position_before_that_decision(replay: Replay) -> None:
    step = first_marked(replay, Seat.S, "mistake")
    seat, action = replay.history[step]
    assert isinstance(action, Play)
    shown = page(replay, step=str(step))
    bottom = shown.seats[0]
    assert bottom.seat is Seat.S and bottom.place == "bottom"
    assert bottom.cards is not None
    marked = [c for c in bottom.cards if c.mark]
    assert [c.text for c in marked] == [shown.decision.chosen]
    assert marked[0].mark == "?" and marked[0].cls == "mistake"
    assert shown.decision is not None and shown.decision.seat is Seat.S
    assert f"Step {step} of {replay.total}." in shown.announce
    assert shown.auction[-1].step < step and any(m.current for m in shown.moves)


def test_the_decision_panel_lists_every_legal_option_with_both_values(replay: Replay) -> None:
    step = first_marked(replay, Seat.S, "blunder")
    decision = DECISIONS[step]
    shown = page(replay, step=str(step)).decision
    assert shown is not None and shown.mark == "??"
    assert shown.explanation == decision["explanation"]
    state = replay.state_at(step)
    assert {o.key for o in shown.options} == {
        str(a.card) for a in state.legal_actions() if isinstance(a, Play)
    }
    hindsight = {o["card"]: o["dd_tricks"] for o in decision["options"]}
    foresight = {o["card"]: o["ev"] for o in decision["foresight"]["options"]}
    for option in shown.options:
        assert option.dd == hindsight[option.key]
        assert option.ev == foresight[option.key]
    assert [o.key for o in shown.options if o.best] == [decision["foresight"]["best"]]
    evs = [o.ev for o in shown.options]
    assert evs == sorted(evs, reverse=True)
    chosen = next(o for o in shown.options if o.chosen)
    assert chosen.url == f"{BASE}?step={step + 1}"
    other = next(o for o in shown.options if not o.chosen)
    assert other.url == f"{BASE}?step={step}&line={other.key}"


def test_a_call_decision_shows_the_calls_with_their_expected_points(replay: Replay) -> None:
    shown = page(replay, step="0").decision
    assert shown is not None and shown.kind == "call"
    labels = [o.label for o in shown.options]
    assert "Pass" in labels and any(label.startswith("Order it up") for label in labels)
    assert all(o.ev is not None and o.dd is None for o in shown.options)


def test_steps_out_of_range_are_clamped_with_a_message(replay: Replay) -> None:
    shown = page(replay, step="500")
    assert shown.step == replay.total and shown.hand_over and shown.decision is None
    assert shown.notes == [f"This hand has {replay.total} steps: showing step {replay.total}."]
    assert page(replay, step="-4").step == 0


def test_the_jumps_follow_every_seats_marks_and_wrap_round(replay: Replay) -> None:
    assert replay.review is not None

    def steps(name: str) -> list[int]:
        return [i for i in range(replay.total) if (m := replay.mark_of(i)) and m.name == name]

    blunders, mistakes = steps("blunder"), steps("mistake")
    assert {replay.history[i][0] for i in blunders + mistakes} - {Seat.S}, "others' marks too"
    shown = page(replay, step="0")
    assert shown.nav.jumps["blunder"] == f"{BASE}?step={blunders[0]}"
    assert shown.nav.jumps["mistake"] == f"{BASE}?step={mistakes[0]}"
    last = page(replay, step=str(blunders[-1]))
    assert last.nav.jumps["blunder"] == f"{BASE}?step={blunders[0]}"  # wraps round
    # Seen from West, the jumps go to the same decisions: every seat's marks.
    west = page(replay, step="0", seat="W")
    assert west.nav.jumps["blunder"].startswith(f"{BASE}?step={blunders[0]}&")


def test_only_what_the_seat_saw_hides_the_other_hands_and_the_discard(replay: Replay) -> None:
    discard_step = next(i for i, (_, a) in enumerate(replay.history) if isinstance(a, Discard))
    dealer = replay.history[discard_step][0]
    assert dealer is Seat.N
    shown = page(replay, step=str(discard_step + 1), view="seat", seat="E")
    assert [s.cards is None for s in shown.seats] == [False, True, True, True]
    assert shown.discard is None and "hidden from East" in shown.discard_note
    assert shown.kitty is None
    discard_move = next(m for m in shown.moves if m.step == discard_step)
    assert discard_move.text == "discard" and "discards a card" in discard_move.label
    as_dealer = page(replay, step=str(discard_step + 1), view="seat", seat="N")
    assert as_dealer.discard is not None
    everything = page(replay, step=str(discard_step + 1))
    assert all(s.cards is not None for s in everything.seats) and everything.kitty


def test_another_seats_decision_is_not_reviewed_in_the_seat_view(replay: Replay) -> None:
    step = first_marked(replay, Seat.W, "blunder")
    shown = page(replay, step=str(step), view="seat", seat="S").decision
    assert shown is not None and shown.hidden and shown.options == []


def test_the_last_trick_stays_visible(replay: Replay) -> None:
    plays = [i for i, (_, a) in enumerate(replay.history) if isinstance(a, Play)]
    shown = page(replay, step=str(plays[5]))  # the second card of trick 2
    assert shown.last_trick is not None and shown.last_trick.number == 1
    assert len(shown.last_trick.cards) == 4


# -- what-if ----------------------------------------------------------------------------------


def test_a_side_line_follows_the_engine_and_offers_the_next_choices(replay: Replay) -> None:
    step = first_marked(replay, Seat.S, "blunder")
    best = DECISIONS[step]["foresight"]["best"]
    shown = page(replay, step=str(step), line=best)
    assert shown.side is not None and shown.decision is None
    assert shown.side.branch == step and len(shown.side.moves) == 1
    assert shown.side.back_url == f"{BASE}?step={step}"
    assert shown.side.choices and all(f"line={best}." in url for _, url in shown.side.choices)
    assert shown.step == step + 1


def test_a_kept_replay_forgets_its_side_lines_past_the_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A replay kept between requests grows a node for each what-if position asked for; past
    ``MAX_SIDE_NODES`` it drops them all, and the main line and new lines still work."""
    monkeypatch.setattr(replay_module, "MAX_SIDE_NODES", 30)
    kept = Replay(record(), Review.from_json(review()))
    main = [node.state for node in kept.mainline]
    rng = random.Random(5)
    for _ in range(40):
        step = rng.randrange(kept.total)
        node, line = kept.mainline[step], []
        for _ in range(3):
            options = [a for a in node.state.legal_actions() if not node.state.is_terminal]
            if not options:
                break
            line.append(action_token(rng.choice(options)))
            node, _, error = kept.branch(*kept.normalise(step, tuple(line)))
            assert error == ""
        assert kept.side_nodes <= 30 + 3
    counted = sum(
        len(node.children) - (1 if at < kept.total else 0) for at, node in enumerate(kept.mainline)
    )
    assert 0 < counted <= kept.side_nodes
    kept.forget_side_lines()
    assert kept.side_nodes == 0
    assert all(len(node.children) == 1 for node in kept.mainline[:-1])
    assert not kept.mainline[-1].children
    assert [node.state for node in kept.mainline] == main


def test_a_side_line_in_the_seat_view_keeps_the_next_seats_cards_hidden(replay: Replay) -> None:
    step = first_marked(replay, Seat.S, "blunder")
    line = DECISIONS[step]["foresight"]["best"]
    # Play on (South's first choice each time) until another seat is to play.
    everything = page(replay, step=str(step), line=line)
    while everything.side is not None and everything.side.to_act == "South":
        label, url = everything.side.choices[0]
        line = url.split("line=")[1].split("&")[0]
        everything = page(replay, step=str(step), line=line)
    assert everything.side is not None and everything.side.choices and not everything.side.hidden
    other = everything.side.to_act
    shown = page(replay, step=str(step), line=line, view="seat", seat="S")
    assert shown.side is not None and shown.side.to_act == other
    assert shown.side.choices == [] and f"{other}'s cards are hidden" in shown.side.hidden


def test_an_illegal_side_line_action_gets_a_clear_message(replay: Replay) -> None:
    step = first_marked(replay, Seat.S, "blunder")
    state = replay.state_at(step)
    held = {str(c) for c in state.hands[Seat.S]}
    elsewhere = next(str(c) for c in state.hands[Seat.W] if str(c) not in held)
    shown = page(replay, step=str(step), line=elsewhere)
    assert shown.side is None and shown.step == step
    assert shown.notes and "South cannot play" in shown.notes[0]
    assert "does not hold" in shown.notes[0]
    garbage = page(replay, step=str(step), line="zz")
    assert garbage.notes == ["“zz” is not a call or a card."]


def test_a_side_line_that_repeats_the_main_line_is_the_main_line(replay: Replay) -> None:
    played = action_token(replay.history[4][1])
    shown = page(replay, step="4", line=played)
    assert shown.side is None and shown.step == 5


def test_the_solver_finishes_a_side_line_with_its_double_dummy_tricks(replay: Replay) -> None:
    step = first_marked(replay, Seat.S, "blunder")
    decision = DECISIONS[step]
    for option in decision["options"]:
        shown = page(replay, step=str(step), line=option["card"], auto="all")
        assert shown.side is not None and shown.side.result is not None
        assert shown.hand_over
        assert shown.side.result["tricks"]["NS"] == option["dd_tricks"]  # South is N-S


def test_one_solver_move_at_a_time(replay: Replay) -> None:
    step = first_marked(replay, Seat.S, "blunder")
    best = DECISIONS[step]["foresight"]["best"]
    params, message = with_solver_moves(
        replay, Params(step, Seat.S, "all", (best,), None, auto="1")
    )
    assert message == "" and params.line[0] == best and len(params.line) == 2


def test_the_solver_bids_with_the_standard_policy_before_the_play() -> None:
    state = parse_record({**SPEC_RECORD, "auction": [], "play": []}).state
    actions = solver_finish(state)
    assert state.is_terminal and len(actions) >= 4 + 20


# -- the summary ------------------------------------------------------------------------------


def test_the_summary_has_accuracy_marks_the_dd_table_and_the_points(replay: Replay) -> None:
    summary = build_summary(replay, url=lambda step: f"{BASE}?step={step}")
    south = next(s for s in summary.seats if s.seat is Seat.S)
    losses = [
        d["foresight"]["loss"]
        for d in DECISIONS
        if d["seat"] == "S" and "loss" in d.get("foresight", {})
    ]
    assert south.graded == len(losses)
    assert south.accuracy == round(sum(decision_accuracy(x) for x in losses) / len(losses))
    assert south.counts["blunder"] == 1 and 0 < south.accuracy < 100
    assert [m.step for m in summary.mistakes] == replay.marked()
    assert summary.mistakes[0].url == f"{BASE}?step={summary.mistakes[0].step}"
    assert [row[0] for row in summary.dd_rows] == ["♠ spades", "♥ hearts", "♦ diamonds", "♣ clubs"]
    assert all(ns + ew == 5 for _, ns, ew, _ in summary.dd_rows)
    assert summary.points == {"NS": 0, "EW": 2} and summary.tricks == {"NS": 1, "EW": 4}


def test_a_hand_without_its_review_is_still_steppable() -> None:
    bare = Replay(record(), None)
    summary = build_summary(bare, url=lambda step: f"{BASE}?step={step}")
    assert summary.dd_rows == [] and "once the review is done" in summary.dd_error
    shown = page(bare, step="6")
    assert shown.decision is not None and shown.decision.mark == ""
    assert all(o.ev is None for o in shown.decision.options)
    assert "not ready" in shown.decision.note
    assert shown.nav.jumps == {}


def test_a_review_of_another_record_is_ignored() -> None:
    other = review_hand(parse_record(SPEC_RECORD), ReviewParams(samples=0))
    assert Replay(record(), other).review is None


def test_the_examples_in_the_docstrings_hold() -> None:
    import doctest

    import games.replay

    failures, tried = doctest.testmod(games.replay)
    assert tried >= 3 and failures == 0


def test_a_good_play_is_marked_in_the_move_list_the_jumps_and_the_summary() -> None:
    from analysis.solver.judgement import GOOD

    fresh = Replay(record(), Review.from_json(review()))
    assert fresh.review is not None
    step = next(
        i
        for i, d in enumerate(fresh.review.decisions)
        if d.mark is None and d.graded and d.foresight and d.foresight.best == d.chosen
    )
    fresh.good = {step: GOOD}  # whatever the policy said: the page shows what it is given
    shown = page(fresh, step="0")
    [move] = [m for m in shown.auction + shown.moves if m.step == step]
    assert (move.mark, move.cls) == ("!", "good")
    assert shown.nav.jumps["good"] == f"{BASE}?step={step}"
    summary = build_summary(fresh, url=lambda i: f"{BASE}?step={i}")
    assert [(g.step, g.mark) for g in summary.good_plays] == [(step, "!")]
    assert step not in [m.step for m in summary.mistakes]
