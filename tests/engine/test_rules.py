"""Every rule option of ``shared/spec/hand-record.md`` shown having its effect, the presets,
and the game around the hands: seeded dealing, packets, the deal passing, targets.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from games.engine.cards import ALL_CARDS, Card, Seat, Suit, Team, parse_card, power
from games.engine.errors import IllegalActionError, RecordError, RuleError
from games.engine.game import PACKETS, Game, deal
from games.engine.hand import (
    NT,
    Call,
    Discard,
    FarmerRedeal,
    FarmerSwap,
    HandState,
    Phase,
    Play,
    Strain,
)
from games.engine.record import parse_record, record_from_state
from games.engine.rules import (
    DEFAULT_PRESET,
    PRESET_LABELS,
    PRESETS,
    Points,
    Rules,
    format_rules,
    parse_rules,
    preset_name,
)

from . import deals
from .randomplay import play_randomly

PASS = Call("pass")


def cards(text: str) -> list[Card | None]:
    return [parse_card(t) for t in text.split()]


def hand_state(
    rules: Rules,
    *,
    dealer: str = "W",
    hands: dict[str, str] | None = None,
    upcard: str = deals.UPCARD,
) -> HandState:
    """A fresh hand; by default the ``ONE_SUIT_EACH`` deal of ``deals.py``."""
    texts = hands or {seat: " ".join(held) for seat, held in deals.ONE_SUIT_EACH.items()}
    dealt = {Seat(seat): cards(text) for seat, text in texts.items()}
    up = parse_card(upcard)
    used = {c for held in dealt.values() for c in held} | {up}
    kitty: list[Card | None] = [c for c in ALL_CARDS if c not in used]
    assert len(kitty) == 3
    return HandState(rules, Seat(dealer), dealt, up, kitty)


def pass_times(state: HandState, count: int) -> None:
    for _ in range(count):
        state.apply(PASS)


def calls(state: HandState) -> set[tuple[str, str | None, bool]]:
    """The legal calls, as (kind, strain, alone)."""
    return {
        (a.kind, None if a.suit is None else str(a.suit), a.alone)
        for a in state.legal_actions()
        if isinstance(a, Call)
    }


def points(record: dict[str, Any]) -> dict[str, int] | None:
    scored: dict[str, int] | None = parse_record(record).state.result().to_json()["points"]
    return scored


def play_game(rules: Rules, seed: int, play_seed: int) -> tuple[Game, list[dict[str, Any]]]:
    """A whole game with random legal play; the record of every hand."""
    game = Game(rules, seed)
    rng = random.Random(play_seed)
    records = []
    while not game.is_over:
        hand = game.new_hand()
        play_randomly(rng, hand)
        game.record()
        records.append(record_from_state(hand))
    return game, records


# -- target ---------------------------------------------------------------------------------


@pytest.mark.parametrize("target", [5, 10, 15])
def test_a_game_ends_after_the_hand_that_reaches_the_target(target: int) -> None:
    for seed in range(5):
        game = Game(Rules(target=target), seed)
        rng = random.Random(seed)
        totals = {Team.NS: 0, Team.EW: 0}
        while not game.is_over:
            assert max(totals.values()) < target
            play_randomly(rng, game.new_hand())
            result = game.record()
            assert result.points is not None
            for team in Team:
                totals[team] += result.points[team]
            assert game.scores == totals
            assert game.is_over == (max(totals.values()) >= target)
        assert game.winner is not None
        assert game.scores[game.winner] >= target > game.scores[game.winner.other]
        with pytest.raises(IllegalActionError, match="the game is over"):
            game.new_hand()


def test_the_target_comes_from_the_rules() -> None:
    assert Rules().target == 10
    assert parse_rules({"target": 15}).target == 15
    assert parse_rules({"preset": "redeal", "target": 5}).target == 5


def test_a_game_to_five_is_shorter_than_a_game_to_fifteen() -> None:
    hands_to = {
        target: sum(len(play_game(Rules(target=target), seed, seed)[1]) for seed in range(5))
        for target in (5, 15)
    }
    assert hands_to[5] < hands_to[15]


def test_a_hand_cannot_be_dealt_before_the_last_one_is_recorded() -> None:
    game = Game(Rules(), seed=3)
    game.new_hand()
    with pytest.raises(IllegalActionError, match="the current hand is not finished and recorded"):
        game.new_hand()
    with pytest.raises(IllegalActionError, match="the current hand is not finished"):
        game.record()


# -- stick the dealer -----------------------------------------------------------------------


def test_with_stick_the_dealer_the_dealer_cannot_pass_after_seven_passes() -> None:
    state = hand_state(Rules(stick_the_dealer=True))
    pass_times(state, 7)
    assert state.current_seat is Seat.W and state.stuck
    assert calls(state) == {("name", suit, alone) for suit in "HDC" for alone in (False, True)}
    with pytest.raises(IllegalActionError, match="the dealer is stuck and must name a suit"):
        state.apply(PASS)


def test_with_stick_the_dealer_the_others_may_still_pass_in_the_second_round() -> None:
    state = hand_state(Rules(stick_the_dealer=True))
    pass_times(state, 4)
    for _ in range(3):
        assert ("pass", None, False) in calls(state)
        state.apply(PASS)


def test_without_stick_the_dealer_eight_passes_throw_the_hand_in_without_score() -> None:
    state = hand_state(Rules(stick_the_dealer=False))
    pass_times(state, 7)
    assert ("pass", None, False) in calls(state)
    state.apply(PASS)
    assert state.is_terminal and state.passed_out
    assert state.result().to_json() == {
        "trump": None,
        "maker": None,
        "alone": False,
        "defender_alone": None,
        "tricks": {"NS": 0, "EW": 0},
        "points": {"NS": 0, "EW": 0},
    }


def test_a_thrown_in_hand_scores_nothing_and_the_next_seat_deals() -> None:
    game = Game(Rules(stick_the_dealer=False), seed=11)
    hand = game.new_hand()
    first_dealer = hand.dealer
    pass_times(hand, 8)
    assert game.record().points == {Team.NS: 0, Team.EW: 0}
    assert game.scores == {Team.NS: 0, Team.EW: 0}
    assert game.new_hand().dealer is first_dealer.next


# -- defending alone ------------------------------------------------------------------------


def test_without_defend_alone_play_starts_right_after_the_call() -> None:
    state = hand_state(Rules(defend_alone=False))
    pass_times(state, 4)
    state.apply(Call("name", Suit.HEARTS))
    assert state.phase is Phase.PLAY and state.current_seat is Seat.N


def test_with_defend_alone_each_defender_is_asked_from_the_makers_left() -> None:
    state = hand_state(Rules(defend_alone=True))
    pass_times(state, 4)
    state.apply(Call("name", Suit.HEARTS))
    assert state.phase is Phase.DEFEND and state.current_seat is Seat.E
    assert state.legal_actions() == [PASS, Call("defend_alone")]
    state.apply(PASS)
    assert state.current_seat is Seat.W
    state.apply(PASS)
    assert state.phase is Phase.PLAY and state.defender_alone is None


def test_a_lone_defenders_partner_sits_out_and_the_lead_skips_that_seat() -> None:
    # N deals; S orders up spades and W defends alone, so E (left of the dealer) sits out.
    state = hand_state(Rules(defend_alone=True), dealer="N")
    state.apply(PASS)  # E
    state.apply(Call("order_up"))  # S
    assert state.current_seat is Seat.W
    state.apply(Call("defend_alone"))
    assert state.defender_alone is Seat.W and state.sits_out(Seat.E)
    state.apply(Discard(parse_card("QH")))  # the dealer still picks up
    assert state.active_seats == [Seat.N, Seat.S, Seat.W]
    order = []
    for _ in range(3):
        assert state.current_seat is not None
        order.append(state.current_seat)
        state.apply(Play(state.legal_cards(state.current_seat)[0]))
    assert order == [Seat.S, Seat.W, Seat.N]
    assert len(state.tricks[0].cards) == 3 and len(state.tricks) == 2


def test_a_maker_cannot_defend_alone() -> None:
    record = deals.record(
        dealer="W",
        auction=[
            *deals.passes("W", 4),
            deals.name("N", "D"),
            {"seat": "S", "call": "defend_alone"},
        ],
        play=[],
        rules="defend-alone",
    )
    with pytest.raises(RecordError, match=r"^auction\[5\]: S is a maker and cannot defend alone$"):
        parse_record(record)


# -- Canadian loner -------------------------------------------------------------------------


def test_canadian_loner_the_dealers_partner_orders_up_only_by_going_alone() -> None:
    state = hand_state(Rules(canadian_loner=True), dealer="W")
    state.apply(PASS)  # N
    assert state.current_seat is Seat.E  # W's partner
    assert calls(state) == {("pass", None, False), ("order_up", None, True)}
    with pytest.raises(IllegalActionError, match="may order up only by going alone"):
        state.apply(Call("order_up"))
    state.apply(Call("order_up", alone=True))
    assert state.alone and state.maker is Seat.E


def test_canadian_loner_leaves_the_other_seats_free_to_order_up() -> None:
    state = hand_state(Rules(canadian_loner=True), dealer="W")
    assert ("order_up", None, False) in calls(state)  # N, the dealer's opponent


def test_canadian_loner_applies_to_the_first_round_only() -> None:
    state = hand_state(Rules(canadian_loner=True), dealer="W")
    pass_times(state, 5)  # to E, the dealer's partner, in the second round
    assert state.current_seat is Seat.E and state.round == 2
    assert ("name", "H", False) in calls(state)
    state.apply(Call("name", Suit.HEARTS))
    assert not state.alone


def test_without_canadian_loner_the_dealers_partner_may_order_up_with_a_partner() -> None:
    state = hand_state(Rules(canadian_loner=False), dealer="W")
    pass_times(state, 2)
    assert ("order_up", None, False) in calls(state)


# -- the dealer sitting out -----------------------------------------------------------------


def test_when_the_dealers_partner_goes_alone_the_upcard_stays_down_by_default() -> None:
    state = hand_state(Rules(sitting_out_dealer_picks_up=False), dealer="N")
    pass_times(state, 1)  # E
    state.apply(Call("order_up", alone=True))  # S
    assert not state.picked_up
    assert state.phase is Phase.PLAY and state.current_seat is Seat.E
    assert parse_card(deals.UPCARD) not in state.hands[Seat.N]


def test_when_the_dealers_partner_goes_alone_the_dealer_may_still_pick_up() -> None:
    state = hand_state(Rules(sitting_out_dealer_picks_up=True), dealer="N")
    pass_times(state, 1)
    state.apply(Call("order_up", alone=True))
    assert state.picked_up and state.phase is Phase.DISCARD and state.current_seat is Seat.N
    assert len(state.legal_actions()) == 6
    state.apply(Discard(parse_card("QH")))
    assert state.sits_out(Seat.N) and state.current_seat is Seat.E


def test_a_record_discarding_when_the_upcard_stayed_down_is_refused() -> None:
    auction = [{"seat": "E", "call": "pass"}, deals.order_up("S", alone=True)]
    record = deals.record(dealer="N", auction=auction, play=[], discard="QH")
    with pytest.raises(
        RecordError, match=r"^discard: the upcard was not picked up, so there is no discard$"
    ):
        parse_record(record)
    record["rules"] = {"sitting_out_dealer_picks_up": True}
    assert parse_record(record).state.discard == parse_card("QH")


def test_the_dealer_picks_up_when_anyone_else_orders_up_alone() -> None:
    for rules in (Rules(), Rules(sitting_out_dealer_picks_up=True)):
        state = hand_state(rules, dealer="N")
        state.apply(Call("order_up", alone=True))  # E, an opponent of the dealer
        assert state.picked_up and state.current_seat is Seat.N


def test_when_a_lone_defenders_partner_deals_the_upcard_stays_down_by_default() -> None:
    # N deals; E orders up spades and S defends alone, so the dealer N sits out.
    state = hand_state(Rules(defend_alone=True), dealer="N")
    state.apply(Call("order_up"))  # E
    assert state.current_seat is Seat.S
    state.apply(Call("defend_alone"))  # S: its partner N, the dealer, sits out
    assert state.sits_out(Seat.N) and not state.picked_up
    assert state.phase is Phase.PLAY and state.current_seat is Seat.E
    assert parse_card(deals.UPCARD) not in state.hands[Seat.N]
    assert state.active_seats == [Seat.E, Seat.S, Seat.W]


def test_when_a_lone_defenders_partner_deals_the_option_may_still_have_it_pick_up() -> None:
    state = hand_state(Rules(defend_alone=True, sitting_out_dealer_picks_up=True), dealer="N")
    state.apply(Call("order_up"))  # E
    state.apply(Call("defend_alone"))  # S
    assert state.picked_up and state.phase is Phase.DISCARD and state.current_seat is Seat.N
    state.apply(Discard(parse_card("QH")))
    assert state.sits_out(Seat.N) and state.current_seat is Seat.E


def test_a_lone_defender_whose_partner_does_not_deal_leaves_the_pick_up_alone() -> None:
    # N deals; S orders up and W defends alone, so E sits out and the dealer N plays.
    for picks_up in (False, True):
        rules = Rules(defend_alone=True, sitting_out_dealer_picks_up=picks_up)
        state = hand_state(rules, dealer="N")
        state.apply(PASS)  # E
        state.apply(Call("order_up"))  # S
        state.apply(Call("defend_alone"))  # W, whose partner E sits out
        assert state.picked_up and state.phase is Phase.DISCARD


def test_a_record_where_a_lone_defenders_dealing_partner_discards_is_refused() -> None:
    auction = [deals.order_up("E"), {"seat": "S", "call": "defend_alone"}]
    record = deals.record(dealer="N", auction=auction, play=[], discard="QH", rules="defend-alone")
    with pytest.raises(
        RecordError, match=r"^discard: the upcard was not picked up, so there is no discard$"
    ):
        parse_record(record)
    record["rules"] = {"preset": "defend-alone", "sitting_out_dealer_picks_up": True}
    assert parse_record(record).state.discard == parse_card("QH")


# -- no-trump -------------------------------------------------------------------------------


def test_no_trump_may_be_named_in_the_second_round_only() -> None:
    state = hand_state(Rules(no_trump=True))
    assert all(kind in ("pass", "order_up") for kind, _, _ in calls(state))
    pass_times(state, 4)
    assert ("name", "NT", False) in calls(state) and ("name", "NT", True) in calls(state)
    state.apply(Call("name", NT))
    assert state.strain == NT and state.trump is None


def test_no_trump_is_refused_where_the_rules_do_not_allow_it() -> None:
    state = hand_state(Rules(no_trump=False))
    pass_times(state, 4)
    assert all(strain != "NT" for _, strain, _ in calls(state))
    with pytest.raises(IllegalActionError, match="no-trump is not allowed by these rules"):
        state.apply(Call("name", NT))


def test_no_trump_cannot_be_named_in_the_first_round() -> None:
    record = deals.record(dealer="W", auction=[deals.name("N", "NT")], play=[], rules="no-trump")
    with pytest.raises(RecordError, match=r"^auction\[0\]: N cannot name NT: a suit is named"):
        parse_record(record)


def test_in_no_trump_jacks_are_just_jacks() -> None:
    # N leads JD: W follows with AD and wins, where under diamonds or hearts JD would rank
    # above every ace.
    record = deals.no_trump_euchred("no-trump")
    state = parse_record(record).state
    assert state.trick_winner(state.tricks[0]) is Seat.W
    assert state.result().tricks == {Team.NS: 0, Team.EW: 5}


def test_in_no_trump_a_jack_follows_its_own_suit() -> None:
    hands = {
        "N": "AS KS QS TS 9S",
        "E": "AD KD QD TD 9D",
        "S": "JD AH KH QH TH",  # S's only diamond is JD
        "W": "AC KC QC TC 9C",
    }
    cases: list[tuple[Strain, list[str]]] = [
        (NT, ["JD"]),
        (Suit.HEARTS, ["AH", "JD", "KH", "QH", "TH"]),
    ]
    for strain, s_may_play in cases:
        state = hand_state(Rules(no_trump=True), dealer="N", hands=hands, upcard="JC")
        pass_times(state, 4)
        state.apply(Call("name", strain))  # E
        state.apply(Play(parse_card("AD")))
        assert sorted(map(str, state.legal_cards(Seat.S))) == s_may_play


def test_no_trump_ranks_ace_king_queen_jack_ten_nine() -> None:
    ranked = [parse_card(c) for c in ("AH", "KH", "QH", "JH", "TH", "9H")]
    powers = [power(c, None, Suit.HEARTS) for c in ranked]
    assert powers == sorted(powers, reverse=True) and len(set(powers)) == 6
    assert power(parse_card("JD"), None, Suit.HEARTS) == 0  # no left bower


def test_a_no_trump_make_scores_its_own_points_option() -> None:
    assert points(deals.no_trump_four("no-trump")) == {"NS": 1, "EW": 0}
    rules = {"no_trump": True, "points": {"no_trump_make": 3}}
    assert points(deals.no_trump_four(rules)) == {"NS": 3, "EW": 0}


# -- the farmer's hand ----------------------------------------------------------------------

FARMER_DEAL = {
    "N": "JH JD AH KH QH",
    "E": "9S 9H 9D AC KC",
    "S": "AS KS QS TS QC",
    "W": "AD KD QD TD JC",
}
"""E holds three 9s; upcard TC, so the kitty is JS TH 9C."""


def test_a_clean_farmers_hand_is_three_nines_declared_before_the_auction() -> None:
    state = hand_state(Rules(farmers_hand="clean"), hands=FARMER_DEAL, upcard="TC")
    assert state.phase is Phase.FARMER and state.current_seat is Seat.E
    swap = FarmerSwap((parse_card("9S"), parse_card("9H"), parse_card("9D")))
    assert state.legal_actions() == [PASS, swap]
    state.apply(swap)
    assert sorted(map(str, state.hands[Seat.E])) == ["9C", "AC", "JS", "KC", "TH"]
    assert sorted(map(str, state.kitty)) == ["9D", "9H", "9S"]
    assert state.phase is Phase.AUCTION and state.current_seat is Seat.N


def farmer_swap(text: str) -> FarmerSwap:
    a, b, c = (parse_card(t) for t in text.split())
    return FarmerSwap((a, b, c))


def test_a_farmers_swap_is_the_same_action_whatever_order_its_cards_come_in() -> None:
    # The same deal with E's hand written in two orders: as dealt, and sorted as a record's
    # canonical form writes it. A review replays the actions of the one on the other.
    rules = Rules(farmers_hand="mixed")
    hands = {**FARMER_DEAL, "E": "TS 9H KC 9S 9D", "S": "AS KS QS AC QC"}
    dealt = hand_state(rules, hands=hands, upcard="TC")
    written = hand_state(rules, hands={**hands, "E": "9S TS 9H 9D KC"}, upcard="TC")
    assert farmer_swap("9D 9H 9S") == farmer_swap("9S 9D 9H")
    assert hash(farmer_swap("9D 9H 9S")) == hash(farmer_swap("9H 9S 9D"))
    assert set(dealt.legal_actions()) == set(written.legal_actions())
    for state in (dealt, written):
        assert farmer_swap("TS 9S 9H") in state.legal_actions()
        state.apply(farmer_swap("TS 9S 9H"))
    assert dealt.farmer == written.farmer == farmer_swap("9H 9S TS")
    assert dealt.kitty == written.kitty


def test_a_farmer_may_keep_the_hand() -> None:
    state = hand_state(Rules(farmers_hand="clean"), hands=FARMER_DEAL, upcard="TC")
    state.apply(PASS)
    assert state.phase is Phase.AUCTION and state.farmer is None
    assert sorted(map(str, state.hands[Seat.E])) == ["9D", "9H", "9S", "AC", "KC"]


def test_without_the_farmers_hand_option_three_nines_are_just_a_weak_hand() -> None:
    state = hand_state(Rules(), hands=FARMER_DEAL, upcard="TC")
    assert state.phase is Phase.AUCTION


def test_a_clean_farmers_hand_needs_three_of_a_kind_not_nines_and_tens() -> None:
    hands = {**FARMER_DEAL, "E": "9S TH 9D AC KC"}  # 9H goes to the kitty
    assert hand_state(Rules(farmers_hand="clean"), hands=hands, upcard="TC").phase is (
        Phase.AUCTION
    )
    mixed = hand_state(Rules(farmers_hand="mixed"), hands=hands, upcard="TC")
    assert mixed.phase is Phase.FARMER and mixed.current_seat is Seat.E
    assert FarmerSwap((parse_card("9S"), parse_card("TH"), parse_card("9D"))) in (
        mixed.legal_actions()
    )


def test_a_clean_farmers_hand_may_be_three_tens() -> None:
    # seed 002: a clean farmer's hand is three of a kind, three 9s or three 10s.
    hands = {
        "N": "JH JD AH KH QH",
        "E": "TS TH TD AC KC",
        "S": "AS KS QS 9S QC",
        "W": "AD KD QD 9D JC",
    }
    state = hand_state(Rules(farmers_hand="clean"), hands=hands, upcard="9C")
    assert state.phase is Phase.FARMER and state.current_seat is Seat.E
    swap = farmer_swap("TS TH TD")
    assert state.legal_actions() == [PASS, swap]
    state.apply(swap)
    assert sorted(map(str, state.kitty)) == ["TD", "TH", "TS"]


def test_a_clean_farmers_hand_of_four_nines_swaps_any_three_of_them() -> None:
    hands = {**FARMER_DEAL, "E": "9S 9H 9D 9C KC", "S": "AS KS QS TS QC"}
    state = hand_state(Rules(farmers_hand="clean"), hands=hands, upcard="AC")
    swaps = [a for a in state.legal_actions() if isinstance(a, FarmerSwap)]
    assert len(swaps) == 4 and all(len(s.cards) == 3 for s in swaps)


def test_a_mixed_farmers_hand_offers_every_three_of_its_nines_and_tens() -> None:
    hands = {**FARMER_DEAL, "E": "9S 9H 9D TS KC", "S": "AS KS QS AC QC"}
    state = hand_state(Rules(farmers_hand="mixed"), hands=hands, upcard="TC")
    swaps = [a for a in state.legal_actions() if isinstance(a, FarmerSwap)]
    assert len(swaps) == 4  # any three of 9S 9H 9D TS


def test_the_turn_card_rule_keeps_the_upcards_suit_out_of_the_swap() -> None:
    hands = {**FARMER_DEAL, "E": "9S 9H 9D 9C KC", "S": "AS KS QS AC QC"}
    rules = Rules(farmers_hand="clean", farmers_turn_card_rule=True)
    state = hand_state(rules, hands=hands, upcard="TH")
    swaps = [a for a in state.legal_actions() if isinstance(a, FarmerSwap)]
    assert [sorted(map(str, s.cards)) for s in swaps] == [["9C", "9D", "9S"]]
    without = hand_state(Rules(farmers_hand="clean"), hands=hands, upcard="TH")
    assert len([a for a in without.legal_actions() if isinstance(a, FarmerSwap)]) == 4


def test_the_turn_card_rule_can_spoil_a_farmers_hand() -> None:
    rules = Rules(farmers_hand="clean", farmers_turn_card_rule=True)
    hands = {**FARMER_DEAL, "E": "9S 9H 9D AC KC", "N": "JH JD AH KH TC"}
    assert hand_state(rules, hands=hands, upcard="QH").phase is Phase.AUCTION
    assert hand_state(Rules(farmers_hand="clean"), hands=hands, upcard="QH").phase is (Phase.FARMER)


def test_with_the_redeal_variant_a_farmers_hand_ends_the_hand_without_score() -> None:
    rules = Rules(farmers_hand="clean", farmers_redeal=True)
    state = hand_state(rules, hands=FARMER_DEAL, upcard="TC")
    assert state.legal_actions() == [PASS, FarmerRedeal()]
    state.apply(FarmerRedeal())
    assert state.is_terminal and state.passed_out and state.farmer_seat is Seat.E
    assert state.result().to_json()["points"] == {"NS": 0, "EW": 0}
    record = record_from_state(state)
    assert record["farmer"] == {"seat": "E", "redeal": True}
    assert parse_record(record).state.result() == state.result()


def test_a_farmers_swap_is_replayed_from_the_record() -> None:
    record = deals.record(
        dealer="W",
        hands={seat: text.split() for seat, text in FARMER_DEAL.items()},
        upcard="TC",
        rules="farmers-hand",
        auction=[deals.order_up("N")],
        discard="TD",
        play=["JH", "TH"],  # E follows hearts with a card from the kitty
    )
    record["farmer"] = {"seat": "E", "cards": ["9S", "9H", "9D"]}
    state = parse_record(record).state
    assert state.trump is Suit.CLUBS
    assert [str(c) for _, c in state.tricks[0].cards] == ["JH", "TH"]
    assert sorted(map(str, state.hands[Seat.E])) == ["9C", "AC", "JS", "KC"]


def test_a_record_with_a_swap_under_the_redeal_variant_is_refused() -> None:
    record = deals.record(
        dealer="W",
        hands={seat: text.split() for seat, text in FARMER_DEAL.items()},
        upcard="TC",
        rules={"farmers_hand": "clean", "farmers_redeal": True},
        auction=[],
        play=[],
    )
    record["farmer"] = {"seat": "E", "cards": ["9S", "9H", "9D"]}
    with pytest.raises(
        RecordError, match=r"^farmer: these rules redeal a farmer's hand instead of swapping$"
    ):
        parse_record(record)


# -- who leads a lone hand ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lone_lead", "leader"), [("left_of_dealer", Seat.N), ("left_of_maker", Seat.S)]
)
def test_the_lone_lead_option_picks_who_leads_a_lone_hand(lone_lead: Any, leader: Seat) -> None:
    state = hand_state(Rules(lone_lead=lone_lead), dealer="W")
    pass_times(state, 5)  # round 1, then N
    state.apply(Call("name", Suit.HEARTS, alone=True))  # E alone: W, the dealer, sits out
    assert state.current_seat is leader


def test_left_of_the_dealer_skips_the_lone_makers_partner() -> None:
    state = hand_state(Rules(lone_lead="left_of_dealer"), dealer="W")
    pass_times(state, 6)
    state.apply(Call("name", Suit.HEARTS, alone=True))  # S alone: N, left of W, sits out
    assert state.current_seat is Seat.E


def test_the_lone_lead_option_does_not_move_the_lead_of_a_hand_with_partners() -> None:
    state = hand_state(Rules(lone_lead="left_of_maker"), dealer="W")
    pass_times(state, 5)
    state.apply(Call("name", Suit.HEARTS))
    assert state.current_seat is Seat.N


# -- points ---------------------------------------------------------------------------------


def test_points_can_be_overridden_one_row_at_a_time() -> None:
    assert points(deals.hearts_march({"points": {"march": 3}})) == {"NS": 3, "EW": 0}
    assert points(deals.hearts_march({"points": {"march": 3}}, alone=True)) == {
        "NS": 4,
        "EW": 0,
    }
    assert points(deals.diamonds("N", {"points": {"euchre": 5}})) == {"NS": 0, "EW": 5}
    rules = {"preset": "defend-alone", "points": {"lone_defender_euchre": 6}}
    assert points(deals.diamonds_defended_alone(rules)) == {"NS": 0, "EW": 6}
    rules = {"points": {"lone_maker_euchred": 3, "make": 0}}
    assert points(deals.diamonds("N", rules, alone=True)) == {"NS": 0, "EW": 3}
    assert points(deals.diamonds("W", rules)) == {"NS": 0, "EW": 0}


def test_points_overrides_keep_the_other_rows() -> None:
    rules = parse_rules({"preset": "no-trump", "points": {"march": 3}})
    assert rules.points == replace(Points(), march=3)
    assert rules.no_trump


# -- the auction ----------------------------------------------------------------------------


def test_the_turned_down_suit_cannot_be_named() -> None:
    state = hand_state(Rules())
    pass_times(state, 4)
    assert all(strain != "S" for _, strain, _ in calls(state))
    with pytest.raises(IllegalActionError, match="spades was turned down and cannot be named"):
        state.apply(Call("name", Suit.SPADES))


def test_in_the_first_round_only_the_upcards_suit_can_be_ordered_up() -> None:
    state = hand_state(Rules())
    assert calls(state) == {
        ("pass", None, False),
        ("order_up", None, False),
        ("order_up", None, True),
    }
    state.apply(Call("order_up"))
    assert state.trump is Suit.SPADES and state.maker is Seat.N


def test_the_dealer_may_discard_the_upcard() -> None:
    state = hand_state(Rules(), dealer="N")
    state.apply(Call("order_up"))  # E
    upcard = parse_card(deals.UPCARD)
    assert Discard(upcard) in state.legal_actions()
    state.apply(Discard(upcard))
    assert sorted(map(str, state.hands[Seat.N])) == sorted(deals.ONE_SUIT_EACH["N"])
    record = record_from_state(state)
    assert record["discard"] == "JS"
    assert parse_record(record).canonical()["discard"] == "JS"


def test_the_dealer_may_discard_any_of_the_six_cards() -> None:
    state = hand_state(Rules(), dealer="N")
    state.apply(Call("order_up"))
    assert sorted(str(a.card) for a in state.legal_actions() if isinstance(a, Discard)) == sorted(
        [*deals.ONE_SUIT_EACH["N"], "JS"]
    )


# -- dealing and games ----------------------------------------------------------------------


def test_the_first_dealer_is_random_but_fixed_by_the_seed() -> None:
    dealers = [Game(Rules(), seed).dealer for seed in range(40)]
    assert set(dealers) == set(Seat)
    assert dealers == [Game(Rules(), seed).dealer for seed in range(40)]


def test_the_deal_passes_clockwise() -> None:
    game = Game(Rules(stick_the_dealer=False), seed=5)
    rng = random.Random(0)
    dealers = []
    for _ in range(6):
        hand = game.new_hand()
        dealers.append(hand.dealer)
        play_randomly(rng, hand)
        game.record()
    first = dealers[0]
    assert dealers == [first, first.next, first.next.next, first.next.next.next, first, first.next]


class _NoShuffle(random.Random):
    def shuffle(self, x: Any) -> None:
        pass


def test_cards_are_dealt_in_packets_of_three_and_two_then_two_and_three() -> None:
    assert PACKETS == ((3, 2, 3, 2), (2, 3, 2, 3))
    dealt = deal(_NoShuffle(), Seat.W)
    deck = [str(c) for c in ALL_CARDS]
    assert [str(c) for c in dealt.hands[Seat.N]] == deck[0:3] + deck[10:12]
    assert [str(c) for c in dealt.hands[Seat.E]] == deck[3:5] + deck[12:15]
    assert [str(c) for c in dealt.hands[Seat.S]] == deck[5:8] + deck[15:17]
    assert [str(c) for c in dealt.hands[Seat.W]] == deck[8:10] + deck[17:20]
    assert str(dealt.upcard) == deck[20]
    assert [str(c) for c in dealt.kitty] == deck[21:24]


def test_a_deal_uses_every_card_once() -> None:
    dealt = deal(random.Random(1), Seat.S)
    everything = [c for held in dealt.hands.values() for c in held] + [dealt.upcard, *dealt.kitty]
    assert sorted(map(str, everything)) == sorted(map(str, ALL_CARDS))


def test_the_same_seed_replays_the_same_game() -> None:
    for rules in (Rules(), PRESETS["redeal"], PRESETS["no-trump"]):
        first, first_records = play_game(rules, seed=21, play_seed=4)
        again, again_records = play_game(rules, seed=21, play_seed=4)
        assert first_records == again_records
        assert first.scores == again.scores


def test_different_seeds_deal_different_games() -> None:
    hands = {str(play_game(Rules(), seed, 0)[1][0]["hands"]) for seed in range(5)}
    assert len(hands) == 5


# -- presets and parsing --------------------------------------------------------------------


def test_a_record_without_rules_uses_the_default_preset() -> None:
    assert parse_rules(None) == PRESETS[DEFAULT_PRESET] == Rules()
    assert DEFAULT_PRESET == "standard"


def test_the_default_preset_is_seed_003s_table_defaults() -> None:
    rules = Rules()
    assert rules.target == 10 and rules.stick_the_dealer and not rules.defend_alone
    assert not rules.canadian_loner and not rules.sitting_out_dealer_picks_up
    assert not rules.no_trump and rules.farmers_hand == "off"
    assert rules.lone_lead == "left_of_dealer"


@pytest.mark.parametrize(
    ("name", "changes"),
    [
        ("standard", {}),
        ("canadian-loner", {"canadian_loner": True}),
        ("defend-alone", {"defend_alone": True}),
        ("redeal", {"stick_the_dealer": False, "sitting_out_dealer_picks_up": True}),
        ("farmers-hand", {"farmers_hand": "clean"}),
        ("no-trump", {"no_trump": True}),
    ],
)
def test_each_preset_parses_by_name_and_holds_its_seeds_options(
    name: str, changes: dict[str, Any]
) -> None:
    assert parse_rules(name) == replace(Rules(), **changes)
    assert parse_rules({"preset": name}) == parse_rules(name)
    assert format_rules(parse_rules(name)) == ({} if name == "standard" else {"preset": name})


def test_preset_names_are_read_tolerantly() -> None:
    assert parse_rules("Canadian Loner") == PRESETS["canadian-loner"]
    assert parse_rules("defend_alone") == PRESETS["defend-alone"]


def test_options_apply_on_top_of_a_named_preset() -> None:
    rules = parse_rules({"preset": "redeal", "target": 5, "no_trump": True})
    assert rules == replace(PRESETS["redeal"], target=5, no_trump=True)
    assert format_rules(rules) == {
        "target": 5,
        "stick_the_dealer": False,
        "sitting_out_dealer_picks_up": True,
        "no_trump": True,
    }
    assert parse_rules(format_rules(rules)) == rules


@pytest.mark.parametrize("name", list(PRESETS))
@pytest.mark.parametrize("target", [5, 15])
def test_a_preset_to_another_target_is_still_that_preset(name: str, target: int) -> None:
    rules = replace(PRESETS[name], target=target)
    assert preset_name(rules) == name
    expected: dict[str, Any] = {} if name == "standard" else {"preset": name}
    assert format_rules(rules) == {**expected, "target": target}
    assert parse_rules(format_rules(rules)) == rules


def test_rules_that_are_no_preset_have_no_preset_name() -> None:
    assert preset_name(Rules(defend_alone=True, no_trump=True, target=5)) is None
    assert preset_name(replace(PRESETS["redeal"], points=Points(march=3))) is None


def test_an_unknown_option_is_rejected() -> None:
    with pytest.raises(RuleError, match=r"^rules: unknown option 'stick_dealer'$"):
        parse_rules({"stick_dealer": True})


def test_an_unknown_preset_is_rejected_by_name_or_in_an_object() -> None:
    message = r"^rules: unknown preset 'euchre-deluxe' \(known presets: standard, "
    with pytest.raises(RuleError, match=message):
        parse_rules("euchre-deluxe")
    with pytest.raises(RuleError, match=message):
        parse_rules({"preset": "euchre-deluxe", "target": 5})


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"target": 0}, "rules.target: must be a whole number from 1 to 100, got 0"),
        ({"target": "10"}, "rules.target: expected a whole number, got '10'"),
        ({"target": True}, "rules.target: expected a whole number, got True"),
        ({"no_trump": 1}, "rules.no_trump: expected true or false, got 1"),
        (
            {"farmers_hand": "dirty"},
            "rules.farmers_hand: expected one of 'off', 'clean', 'mixed', got 'dirty'",
        ),
        (
            {"lone_lead": "dealer"},
            "rules.lone_lead: expected one of 'left_of_dealer', 'left_of_maker', got 'dealer'",
        ),
        ({"points": 3}, "rules.points: expected an object, got 3"),
        ({"points": {"sweep": 3}}, "rules.points: unknown option 'sweep'"),
        (
            {"points": {"march": -1}},
            "rules.points.march: must be a whole number from 0 to 100, got -1",
        ),
        (["standard"], "rules: expected a preset name or an object, got ['standard']"),
    ],
)
def test_a_bad_option_value_is_rejected_naming_the_option(rules: Any, message: str) -> None:
    with pytest.raises(RuleError) as raised:
        parse_rules(rules)
    assert str(raised.value) == message


def test_the_rules_describe_themselves_in_words() -> None:
    words = dict(PRESETS["redeal"].describe())
    assert words["Everyone passes twice"] == "redeal"
    assert (
        words["When the dealer sits out (a partner alone)"]
        == "the dealer still picks up and discards"
    )
    assert dict(Rules().describe())["Everyone passes twice"] == "the dealer must name a suit"


def test_every_preset_has_a_label_for_the_pages() -> None:
    assert list(PRESET_LABELS) == list(PRESETS)
