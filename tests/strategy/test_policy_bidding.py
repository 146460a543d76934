"""Each bidding rule of the standard policy, on a hand-built deal whose answer is plain.

Seats bid N, E, S, W from the left of the dealer; with W dealing, E is the dealer's
partner and N and S its opponents.
"""

from __future__ import annotations

from games.engine.cards import Suit, parse_card
from games.engine.hand import NT, Call, Discard, FarmerRedeal, FarmerSwap, Phase
from games.engine.rules import Points, Rules
from games.strategy.policy import choose_discard, hand_points, sure_tricks

from .tables import cards, normal, run, table

ORDER = Call("order_up")
ORDER_ALONE = Call("order_up", None, True)
PASS = Call("pass")


# -- hand strength ---------------------------------------------------------------------------


def test_the_left_bower_counts_as_a_trump_and_leaves_its_printed_suit_void() -> None:
    # Hearts trump: JD is a heart, so the hand is void in spades and in diamonds.
    assert hand_points(cards("JD QH TH AC 9C"), Suit.HEARTS) == 3.5 + 2 + 2 + 2 + 1 + 1


def test_sure_tricks_skip_cards_out_of_play() -> None:
    hand = cards("JD AH KH 9S 9C")
    assert sure_tricks(hand, Suit.HEARTS) == 0
    assert sure_tricks(hand, Suit.HEARTS, dead=cards("JH")) == 3


def test_sure_tricks_at_no_trump_run_down_from_each_ace() -> None:
    assert sure_tricks(cards("AS KS AH QH 9C"), NT) == 3


# -- first round -----------------------------------------------------------------------------


def test_three_trumps_and_an_off_ace_order_up() -> None:
    state = table("W", "9H", N="KH QH TH AC 9S")
    assert normal(state) == (ORDER, "Three trumps and the ace of clubs: order up.")


def test_three_small_trumps_without_an_ace_or_void_to_spare_pass() -> None:
    state = table("W", "9H", N="KH QH TH KC 9S")
    assert normal(state)[0] == PASS


def test_the_left_bower_is_counted_when_ordering_up() -> None:
    # Counted as a diamond, the JD would leave two trumps and 7 points: a pass.
    state = table("W", "9H", N="JD QH TH AC 9C")
    assert normal(state) == (
        ORDER,
        "Three trumps with the left bower and the ace of clubs: order up.",
    )


def test_both_bowers_and_the_ace_go_alone() -> None:
    action, reason = normal(table("W", "TH", N="JH JD AH 9C 9S"))
    assert action == ORDER_ALONE
    assert reason.startswith("Three trumps with both bowers and the trump ace")
    assert "go alone" in reason


def test_fourteen_points_with_three_trumps_go_alone_without_both_bowers() -> None:
    # 4 + 3 + 2.5 + 2 trumps, the ace of clubs 2, void in spades and diamonds 2: 15.5.
    assert normal(table("W", "TH", N="JH AH KH QH AC"))[0] == ORDER_ALONE


def test_no_lone_hand_when_a_march_already_wins_the_game() -> None:
    state = table("W", "TH", N="JH JD AH 9C 9S")
    assert normal(state, ns=8)[0] == ORDER


def test_no_lone_hand_when_the_rules_pay_a_lone_march_like_a_march() -> None:
    rules = Rules(points=Points(lone_march=2))
    assert normal(table("W", "TH", rules, N="JH JD AH 9C 9S"))[0] == ORDER


def test_the_dealers_partner_orders_up_what_an_opponent_passes() -> None:
    # 8.5 points. The upcard, the right bower, is worth 2 to whoever's side gets it.
    hand = "AH KH TH 9S 9C"
    partner = run(table("W", "JH", E=hand), "pass")
    assert normal(partner) == (
        ORDER,
        "Three trumps with the trump ace, and partner picks up the right bower: order up.",
    )
    opponent = table("W", "JH", N=hand)
    assert normal(opponent) == (
        PASS,
        "Three trumps with the trump ace, but ordering up would give the dealer the right "
        "bower: pass.",
    )


def test_the_dealer_values_the_hand_it_keeps_after_picking_up() -> None:
    state = run(table("W", "JH", W="9H TH AC KS QD"), "pass, pass, pass")
    assert normal(state) == (
        ORDER,
        "With the right bower picked up, three trumps with the right bower and the ace of "
        "clubs: pick it up.",
    )
    run(state, "order")
    assert state.phase is Phase.DISCARD
    assert normal(state) == (
        Discard(parse_card("QD")),
        "Discard the queen of diamonds: it leaves a void in diamonds.",
    )


def test_the_dealer_passes_a_weak_pick_up() -> None:
    state = run(table("W", "9H", W="TS KS AD QC 9C"), "pass, pass, pass")
    assert normal(state)[0] == PASS


def test_the_opponents_one_point_from_winning_make_the_policy_bid_lighter() -> None:
    # 8 points against a threshold of 9 (the dealer would get a trump)…
    state = table("W", "9H", N="AH QH 9S AC 9C")
    assert normal(state)[0] == PASS
    # …but with the opponents at 9 the threshold drops by 1.
    assert normal(state, ew=9) == (
        ORDER,
        "Two trumps with the trump ace and the ace of clubs, and the opponents are one hand "
        "from winning: order up.",
    )


# -- the dealer's discard --------------------------------------------------------------------


def test_the_discard_makes_a_void_and_keeps_the_aces() -> None:
    assert choose_discard(cards("JH 9H TH AC KS QD"), Suit.HEARTS) == parse_card("QD")
    assert choose_discard(cards("JH 9H AS AC KC QC"), Suit.HEARTS) == parse_card("QC")


def test_the_discard_is_never_a_trump_while_an_off_suit_card_is_held() -> None:
    assert choose_discard(cards("JH AH KH QH 9H AS"), Suit.HEARTS) == parse_card("AS")
    assert choose_discard(cards("JH JD AH KH QH 9H"), Suit.HEARTS) == parse_card("9H")


# -- second round ----------------------------------------------------------------------------


def test_the_second_round_names_the_best_suit_worth_eight_points() -> None:
    state = run(table("W", "KH", N="JS AS KS 9D 9H"), "pass, pass, pass, pass")
    assert normal(state) == (
        Call("name", Suit.SPADES),
        "With spades as trump, three trumps with the right bower and the trump ace: name spades.",
    )


def test_the_second_round_passes_a_weak_hand() -> None:
    state = run(table("W", "KH", N="9S TC QD 9H KC"), "pass, pass, pass, pass")
    assert normal(state)[0] == PASS


def test_a_stuck_dealer_names_its_longest_suit_never_the_turned_down_one() -> None:
    # Hearts are the longest suit, but they were turned down.
    state = run(table("W", "AH", W="9H TH KH QS 9S"), *["pass"] * 7)
    assert state.stuck
    assert normal(state) == (
        Call("name", Suit.SPADES),
        "Stuck as dealer: name the longest suit, spades (two cards), never the turned-down hearts.",
    )


def test_a_stuck_dealer_counts_the_left_bower_in_a_suits_length() -> None:
    # JC makes spades two cards long; as a club it is alone.
    state = run(table("W", "AH", W="JC 9S TH QH 9D"), *["pass"] * 7)
    assert normal(state)[0] == Call("name", Suit.SPADES)


def test_without_stick_the_dealer_the_dealer_may_pass_a_weak_hand() -> None:
    rules = Rules(stick_the_dealer=False)
    state = run(table("W", "AH", rules, W="9H TH KH QS 9S"), *["pass"] * 7)
    assert normal(state)[0] == PASS


def test_no_trump_is_named_on_aces_spread_across_suits() -> None:
    hand = "AS AH AC 9D TD"
    state = run(table("W", "KD", Rules(no_trump=True), N=hand), "pass, pass, pass, pass")
    assert normal(state) == (
        Call("name", NT),
        "Three sure tricks at no-trump (aces across the suits): name no-trump.",
    )
    # Where the rules do not play no-trump, no single suit is worth naming.
    assert normal(run(table("W", "KD", N=hand), "pass, pass, pass, pass"))[0] == PASS


def test_five_sure_no_trump_tricks_go_alone() -> None:
    state = run(
        table("W", "9D", Rules(no_trump=True), N="AS KS AH AC AD"), "pass, pass, pass, pass"
    )
    assert normal(state)[0] == Call("name", NT, True)


def test_a_lone_hand_is_named_alone_in_the_second_round() -> None:
    state = run(table("W", "KD", N="JS JC AS 9H 9D"), "pass, pass, pass, pass")
    assert normal(state)[0] == Call("name", Suit.SPADES, True)


# -- the Canadian loner ----------------------------------------------------------------------


def test_the_canadian_loner_keeps_the_dealers_partner_from_a_plain_order_up() -> None:
    rules = Rules(canadian_loner=True)
    state = run(table("W", "JH", rules, E="AH KH TH 9S 9C"), "pass")
    action, reason = normal(state)
    assert action == PASS
    assert "Canadian loner" in reason


def test_the_canadian_loner_orders_up_alone_with_a_lone_hand() -> None:
    # The upcard (the right bower) stays down when the dealer's partner goes alone: the
    # left bower, ace and king are then the top three trumps in play.
    rules = Rules(canadian_loner=True)
    state = run(table("W", "JH", rules, E="JD AH KH QH 9S"), "pass")
    assert normal(state)[0] == ORDER_ALONE


# -- defending alone -------------------------------------------------------------------------


def test_a_defender_with_three_sure_tricks_defends_alone() -> None:
    rules = Rules(defend_alone=True)
    state = run(table("W", "9H", rules, E="JH JD AH 9C 9S"), "order")
    assert state.phase is Phase.DEFEND and state.current_seat is not None
    assert normal(state) == (
        Call("defend_alone"),
        "Three sure tricks against hearts: a euchre alone, defend alone.",
    )


def test_a_defender_without_three_sure_tricks_defends_with_partner() -> None:
    rules = Rules(defend_alone=True)
    state = run(table("W", "9H", rules, E="JH AH KH 9C 9S"), "order")
    assert normal(state)[0] == PASS


def test_no_lone_defence_when_a_plain_euchre_wins_the_game() -> None:
    rules = Rules(defend_alone=True)
    state = run(table("W", "9H", rules, E="JH JD AH 9C 9S"), "order")
    assert normal(state, ew=8)[0] == PASS


# -- the farmer's hand -----------------------------------------------------------------------


def test_a_farmers_hand_is_swapped_for_the_kitty() -> None:
    state = table("W", "TC", Rules(farmers_hand="clean"), N="9S 9H 9D KC AC")
    assert state.phase is Phase.FARMER
    action, reason = normal(state)
    assert action == FarmerSwap((parse_card("9S"), parse_card("9H"), parse_card("9D")))
    assert reason.startswith("A farmer's hand: swap")


def test_the_farmer_keeps_a_card_of_the_upcards_suit() -> None:
    state = table("W", "TC", Rules(farmers_hand="clean"), N="9S 9H 9D 9C AC")
    action, _ = normal(state)
    assert isinstance(action, FarmerSwap)
    assert set(action.cards) == set(cards("9S 9H 9D"))


def test_a_mixed_farmer_swaps_the_nines_before_a_ten_of_the_upcards_suit() -> None:
    state = table("W", "QS", Rules(farmers_hand="mixed"), N="9S 9H TD TS KC")
    action, _ = normal(state)
    assert isinstance(action, FarmerSwap)
    assert set(action.cards) == set(cards("9H TD 9S"))


def test_a_farmers_hand_already_worth_ordering_up_is_kept() -> None:
    state = table("W", "QH", Rules(farmers_hand="mixed"), N="9H TH 9D JH JD")
    assert normal(state)[0] == PASS


def test_the_redeal_variant_asks_for_a_redeal() -> None:
    rules = Rules(farmers_hand="clean", farmers_redeal=True)
    state = table("W", "TC", rules, N="9S 9H 9D KC AC")
    assert normal(state)[0] == FarmerRedeal()


def test_the_turn_card_rule_is_left_to_the_engine() -> None:
    rules = Rules(farmers_hand="clean", farmers_turn_card_rule=True)
    state = table("W", "TC", rules, N="9S 9H 9C KC AC")
    # The 9C is the upcard's suit: only two nines qualify, so there is no farmer's hand.
    assert state.phase is Phase.AUCTION
