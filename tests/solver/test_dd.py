"""The double-dummy solver against a plain brute-force minimax, like perft."""

from __future__ import annotations

import random

import pytest

from analysis.solver.dd import Position, Solver, _key_tables, _suit_key_tables
from analysis.solver.tables import NO_TRUMP, card_mask, tables_for
from games.engine.cards import parse_card

from .brute import brute_force


def random_position(rng: random.Random, cards_each: int) -> tuple[Solver, Position]:
    strain = rng.randrange(5)
    active = [True, True, True, True]
    roll = rng.random()
    if roll < 0.25:
        active[rng.randrange(4)] = False  # a lone hand: three active seats
    elif roll < 0.35:
        seat = rng.randrange(4)
        active[seat] = active[(seat + 1) % 4] = False  # lone maker against a lone defender
    deck = list(range(24))
    rng.shuffle(deck)
    hands = [0, 0, 0, 0]
    for seat in range(4):
        if active[seat]:
            for card in deck[:cards_each]:
                hands[seat] |= 1 << card
            deck = deck[cards_each:]
    act = (active[0], active[1], active[2], active[3])
    solver = Solver(strain, act)
    leader = rng.choice([s for s in range(4) if act[s]])
    position = Position(strain, (hands[0], hands[1], hands[2], hands[3]), leader, (), act)
    for _ in range(rng.randrange(sum(act))):
        card = rng.choice(solver.legal(position))
        played = list(position.hands)
        played[position.to_move] ^= 1 << card
        position = Position(
            strain,
            (played[0], played[1], played[2], played[3]),
            leader,
            (*position.trick, card),
            act,
        )
    return solver, position


@pytest.mark.parametrize("cards_each", [1, 2, 3, 4])
def test_the_solver_agrees_with_brute_force_on_random_positions(cards_each: int) -> None:
    rng = random.Random(1000 + cards_each)
    for _ in range(1000 if cards_each < 4 else 250):
        solver, position = random_position(rng, cards_each)
        expected = brute_force(
            position.strain, position.hands, position.leader, position.trick, position.active
        )
        assert solver.solve(position) == expected, position


def test_every_option_value_agrees_with_brute_force() -> None:
    rng = random.Random(7)
    for _ in range(300):
        solver, position = random_position(rng, rng.randint(1, 4))
        for card, value in solver.options(position).items():
            hands = list(position.hands)
            hands[position.to_move] ^= 1 << card
            trick = (*position.trick, card)
            if len(trick) == position.players:
                continue  # a finished trick is checked through solve() on the next lead
            expected = brute_force(
                position.strain,
                (hands[0], hands[1], hands[2], hands[3]),
                position.leader,
                trick,
                position.active,
            )
            assert value == expected, (position, card)


def test_options_given_the_position_value_are_the_options_found_without_it() -> None:
    rng = random.Random(8)
    for _ in range(300):
        solver, position = random_position(rng, rng.randint(1, 5))
        value = Solver(position.strain, position.active).solve(position)
        fresh = Solver(position.strain, position.active).options(position)
        assert solver.options(position, value) == fresh, position


def test_known_bounds_that_settle_the_value_need_no_search() -> None:
    rng = random.Random(9)
    for _ in range(100):
        solver, position = random_position(rng, rng.randint(2, 5))
        value = Solver(position.strain, position.active).solve(position)
        nodes = solver.nodes
        assert solver.solve(position, at_least=value, at_most=value) == value
        assert solver.nodes == nodes
        assert solver.solve(position, at_least=value) == value
        assert solver.solve(position, at_most=value) == value


def test_full_deals_agree_with_brute_force() -> None:
    rng = random.Random(99)
    for _ in range(6):
        solver, position = random_position(rng, 5)
        expected = brute_force(
            position.strain, position.hands, position.leader, position.trick, position.active
        )
        assert solver.solve(position) == expected


def hand(text: str) -> int:
    return card_mask([parse_card(c) for c in text.split()])


HEARTS, SPADES = 1, 0


def test_the_left_bower_is_a_trump_in_the_search() -> None:
    # Hearts trump, one card each: N leads the ace of diamonds; E's jack of diamonds is the
    # left bower, a heart, and trumps it; S and W follow with diamonds.
    position = Position(HEARTS, (hand("AD"), hand("JD"), hand("9D"), hand("KD")), leader=0)
    assert Solver(HEARTS).solve(position) == 0


def test_a_hand_verified_endgame_where_cashing_the_ace_is_right() -> None:
    # Spades trump, two cards each, N to lead. N: A♥ 9♥; E: K♥ J♠ (the right bower);
    # S: Q♦ T♦; W: A♦ 9♦. Cashing A♥ wins (E must follow with K♥), then E's bower takes
    # the last trick: NS 1. Leading 9♥ loses both: E's K♥ wins, then the bower: NS 0.
    position = Position(
        SPADES, (hand("AH 9H"), hand("KH JS"), hand("QD TD"), hand("AD 9D")), leader=0
    )
    assert Solver(SPADES).solve(position) == 1
    assert Solver(SPADES).options(position) == {
        parse_card("9H").index: 0,
        parse_card("AH").index: 1,
    }


def test_no_trump_has_no_bowers() -> None:
    # No-trump: the jack of diamonds is just a diamond and cannot beat the ace of hearts led.
    position = Position(NO_TRUMP, (hand("AH"), hand("JD"), hand("9H"), hand("JH")), leader=0)
    assert Solver(NO_TRUMP).solve(position) == 1


def test_a_lone_maker_plays_against_two_defenders() -> None:
    # S sits out; N alone with the two bowers (hearts trump) against E and W.
    active = (True, True, False, True)
    position = Position(HEARTS, (hand("JH JD"), hand("AH 9S"), 0, hand("KH TS")), 0, (), active)
    assert Solver(HEARTS, active).solve(position) == 2


def test_a_solver_shared_across_deals_keeps_their_positions_apart() -> None:
    """The foresight review shares one solver across its sampled layouts, so the table's
    key must tell apart positions of different deals. Here all seven spades are out and
    only the ten and the nine change hands between North and West: North's spade ranks
    (6th or 7th of seven) were once lost under the suit's card count in the key."""
    first = Position(
        SPADES, (hand("TS JS JH"), hand("9D QD TC"), hand("QS KS KD"), hand("9S AS JC")), 0
    )
    second = Position(
        SPADES, (hand("9S JS JH"), hand("9D QD TC"), hand("QS KS KD"), hand("TS AS JC")), 0
    )
    shared = Solver(SPADES)
    assert shared.solve(first) == brute_force(SPADES, first.hands, 0) == 2
    assert shared.solve(second) == brute_force(SPADES, second.hands, 0) == 1
    # Many deals through one solver per strain and seats, against a fresh solver each.
    rng = random.Random(12)
    solvers: dict[tuple[int, tuple[bool, bool, bool, bool]], Solver] = {}
    for _ in range(600):
        fresh, position = random_position(rng, rng.randint(3, 5))
        key = (position.strain, position.active)
        shared = solvers.setdefault(key, Solver(*key))
        assert shared.solve(position) == fresh.solve(position), position


def test_a_tests_answer_is_a_true_bound_whichever_side_of_the_threshold() -> None:
    """``test(k)`` answers with what the search proved (the review settles a second
    threshold with it): ``v >= k`` means at least ``v``, ``v < k`` at most ``v``. One solver
    per strain and seats, so that what earlier tests kept is used."""
    rng = random.Random(31)
    solvers: dict[tuple[int, tuple[bool, bool, bool, bool]], Solver] = {}
    for _ in range(400):
        fresh, position = random_position(rng, rng.randint(2, 5))
        value = fresh.solve(position)
        key = (position.strain, position.active)
        shared = solvers.setdefault(key, Solver(*key))
        for k in range(position.tricks_left + 1):
            answer = shared.test(position, k)
            if answer >= k:
                assert value >= answer, (position, k, answer)
            else:
                assert value <= answer, (position, k, answer)


def test_a_plain_suits_cards_rank_in_the_order_of_their_bits() -> None:
    """The search finds the top card of a plain suit by comparing hands as numbers: in
    every strain, a stronger plain card must be a higher bit."""
    for strain in range(5):
        tables = tables_for(strain)
        for suit, order in enumerate(tables.order):
            if suit != strain:
                assert list(order) == sorted(order, reverse=True), (strain, suit)


def test_a_suits_one_look_up_key_is_its_three_look_ups_key() -> None:
    """The table's key takes one look-up a suit, of the four hands side by side: it must
    give what the three look-ups of the suit's cards out and held give, wherever its cards
    lie (in any hand, or played)."""
    rng = random.Random(7)
    for strain in range(5):
        tables, wide = _suit_key_tables(strain)
        three = _key_tables(strain)
        suit_mask = tables_for(strain).suit_mask
        for _ in range(400):
            hands = [0, 0, 0, 0]
            for card in range(24):
                where = rng.randrange(5)
                if where < 4:
                    hands[where] |= 1 << card
            x = ((hands[0] << 24 | hands[1]) << 24 | hands[2]) << 24 | hands[3]
            for suit in range(4):
                mask = suit_mask[suit]
                out = (hands[0] | hands[1] | hands[2] | hands[3]) & mask
                b = out << 24
                north, east, south = three[suit]
                expected = north[b | hands[0] & out] | east[b | hands[1] & out]
                expected |= south[b | hands[2] & out]
                assert tables[suit][x & wide[suit]] == expected, (strain, suit, hands)


CACHES = (
    "_RUN_CACHE",
    "_RUN_UP_CACHE",
    "_COMP_CACHE",
    "_KEY_CACHE",
    "_SUIT_KEY_CACHE",
    "_BOUND_CACHE",
    "_LEAD_CACHE",
)


def test_prepare_makes_every_strains_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker makes the tables as it starts: afterwards no search has one to make."""
    from analysis.solver import dd

    for name in CACHES:
        monkeypatch.setattr(dd, name, {})
    dd.prepare()
    for name in CACHES:
        assert sorted(getattr(dd, name)) == [0, 1, 2, 3, 4], name
    # Made by prepare, they are the ones a new solver uses: nothing is made twice.
    made = {name: dict(getattr(dd, name)) for name in CACHES}
    for strain in range(5):
        Solver(strain).solve(Position(strain, (0b11, 0b1100, 0b110000, 0b11000000), 0))
    for name in CACHES:
        assert getattr(dd, name) == made[name], name


def test_a_starting_worker_prepares_the_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    from celery.signals import worker_init

    from analysis.solver import dd
    from euchre_site.celery import prepare_solver

    assert prepare_solver in [ref() for _, ref in worker_init.receivers]
    monkeypatch.setattr(dd, "_SUIT_KEY_CACHE", {})
    prepare_solver(sender=None)
    assert sorted(dd._SUIT_KEY_CACHE) == [0, 1, 2, 3, 4]
