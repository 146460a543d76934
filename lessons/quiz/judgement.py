"""Questions of judgement: the best call, the best card. Graded by foresight.

The unseen cards are dealt at random ``SAMPLES`` times, consistently with what the player
has seen; each option is followed to the end of the hand (the rest of the auction by the
standard policy, the play double dummy) and is worth its average net points.

**Grading tolerance.** An option is marked right when its expected loss against the best
option is at most ``max(MIN_TOLERANCE, 2 × SE)``, where SE is the standard error of the
paired per-layout differences between the two options. 0.15 points is the review's
threshold for an inaccuracy; the second term keeps sampling noise from marking a sound
choice wrong, as the review does.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from analysis.solver.foresight import (
    OptionValue,
    call_foresight,
    card_foresight,
    discard_foresight,
    paired_loss,
)
from analysis.solver.judgement import INACCURACY
from analysis.solver.review import standard_policy
from games.engine.cards import Card, Seat, Suit, effective_suit, parse_card, sort_cards
from games.engine.game import deal
from games.engine.hand import Action, Call, HandState, Phase
from games.engine.record import record_from_state
from games.engine.rules import PRESETS, Rules, preset_name
from games.engine.words import (
    auction_story,
    call_label,
    call_words,
    the,
    trick_text,
    trump_sentence,
)
from games.strategy.observation import observe
from games.strategy.policy import decide_with_reason

from .question import Draft, Grading
from .table_rules import rules_json
from .tricks import start_hand

__all__ = [
    "CLEAR_MARGIN",
    "MIN_TOLERANCE",
    "SAMPLES",
    "best_card_question",
    "call_question",
    "discard_question",
    "grade_options",
    "table_words",
]

SAMPLES = 60
"""Layouts of the unseen cards sampled to grade a call or a card."""
MIN_TOLERANCE = INACCURACY.threshold
"""Points an option may lose against the best and still be marked right (at least): the
review's threshold for an inaccuracy."""
CLEAR_MARGIN = 0.5
"""A best-card question is asked only where the best card beats the second by this much."""
SCORE_TEXT = (
    "The score is 0–0, so what counts is the points this hand is expected to win, and that "
    "is how the options are graded."
)
"""The bidding and discard questions are asked at 0–0: foresight values the hand's expected
points, which is what a call is worth when neither side is near the target. Near the end of
a game a call is worth what it does to the chance of winning, which the analysis does not
measure, so the quiz does not pretend to grade such a score."""
RULE_OPTIONS = (
    "target",
    "stick_the_dealer",
    "canadian_loner",
    "defend_alone",
    "sitting_out_dealer_picks_up",
    "no_trump",
    "farmers_hand",
)
"""The options each bidding and discard question spells out in ``position.rules``."""


def table_words(rules: Rules) -> str:
    """The table's rules in a sentence, as a bidding or discard question states them."""
    name = preset_name(rules)
    parts = [
        "stick the dealer (after seven passes the dealer must name a suit)"
        if rules.stick_the_dealer
        else "no stick the dealer (if all four pass twice, the hand is thrown in and redealt)"
    ]
    if rules.canadian_loner:
        parts.append(
            "the Canadian loner (in the first round the dealer's partner may order up only by "
            "going alone)"
        )
    if rules.defend_alone:
        parts.append(
            f"defending alone (a defender may go alone and scores "
            f"{rules.points.lone_defender_euchre} for euchring the makers)"
        )
    else:
        parts.append("no defending alone")
    if rules.sitting_out_dealer_picks_up:
        parts.append("the dealer picks up the upcard even when sitting out for a lone partner")
    if rules.no_trump:
        parts.append(
            f"no-trump may be named in the second round (no bowers; "
            f"{rules.points.no_trump_make} point for 3 or 4 tricks)"
        )
    if rules.farmers_hand != "off":
        parts.append("the farmer's hand (three 9s may be swapped for the kitty before the bidding)")
    label = f"the {_PRESET_WORDS[name]} rules" if name else "these rules"
    return f"The table plays {label}: {', '.join(parts)}; the game is to {rules.target}."


_PRESET_WORDS = {
    "standard": "standard",
    "canadian-loner": "Canadian loner",
    "defend-alone": "defend-alone",
    "redeal": "redeal",
    "farmers-hand": "farmer's hand",
    "no-trump": "no-trump",
}


def _preset(rng: random.Random, exclude: tuple[str, ...] = ()) -> Rules:
    """One of the project's presets, drawn with the seed."""
    return PRESETS[rng.choice([name for name in PRESETS if name not in exclude])]


def grade_options(
    values: dict[str, OptionValue], order: list[str], seed: int
) -> tuple[str, list[str], dict[str, Any], dict[str, tuple[float, float]]]:
    """The best option, every option within tolerance of it, the figures for the learner,
    and each option's (loss, standard error of the loss). ``seed`` is the seed of the sampled
    layouts, given with the figures so that anyone can reproduce them."""
    best = max(order, key=lambda label: values[label].mean)
    losses = {label: paired_loss(values[best], values[label]) for label in order}
    accepted = [
        label for label in order if losses[label][0] <= max(MIN_TOLERANCE, 2 * losses[label][1])
    ]
    numbers = {
        "samples": len(values[best].values),
        "seed": seed,
        "tolerance": f"max({MIN_TOLERANCE}, 2 × standard error of the loss)",
        "options": [
            {
                "option": label,
                "expected_points": round(values[label].mean, 3),
                "standard_error": round(values[label].se, 3),
                "loss": round(losses[label][0], 3),
                "loss_se": round(losses[label][1], 3),
                "accepted": label in accepted,
            }
            for label in order
        ],
    }
    return best, accepted, numbers, losses


def _graded_draft(
    kind: str,
    prompt: str,
    position: dict[str, Any],
    order: list[str],
    best: str,
    accepted: list[str],
    explanation: str,
    losses: dict[str, tuple[float, float]],
    numbers: dict[str, Any],
    words: Callable[[str], str],
) -> Draft:
    """A question graded by expected points: one choice to make among ``order``, any
    accepted one right, each other one told what it gives up (``words`` names it)."""
    return Draft(
        kind=kind,
        prompt=prompt,
        position=position,
        choices=order,
        multiple=False,
        grading=Grading(
            answer=[best],
            accepted=accepted,
            explanation=explanation,
            feedback=_feedback(order, accepted, losses, words),
            numbers=numbers,
        ),
    )


def _feedback(
    order: list[str],
    accepted: list[str],
    losses: dict[str, tuple[float, float]],
    words: Callable[[str], str],
) -> dict[str, str]:
    feedback = {}
    for label in order:
        loss, se = losses[label]
        if label not in accepted:
            feedback[label] = (
                f"{words(label)[0].upper() + words(label)[1:]} gives up {loss:.2f} points a "
                f"hand on average (give or take {se:.2f})."
            )
    return feedback


# -- calls ---------------------------------------------------------------------------------


def _fresh_state(rng: random.Random, rules: Rules, dealer: Seat) -> HandState:
    """A dealt hand whose bidding starts at once: under the farmer's hand a deal in which
    nobody could declare one (so every question's auction is the plain one it states)."""
    while True:
        dealt = deal(rng, dealer)
        state = HandState(rules, dealer, dealt.hands, dealt.upcard, dealt.kitty)
        if state.phase is Phase.AUCTION:
            return state


def _defend_state(rng: random.Random, rules: Rules, dealer: Seat) -> HandState:
    """A hand bid by the standard policy up to the first defender's choice to defend alone."""
    while True:
        state = _fresh_state(rng, rules, dealer)
        while state.phase is Phase.AUCTION:
            seat = state.current_seat
            assert seat is not None
            state.apply(standard_policy(state, seat))
        if state.phase is Phase.DEFEND:
            return state


def call_question(rng: random.Random, level: int) -> Draft:
    """What should you call? Round one (order up, pass, alone), round two (naming, no-trump
    where allowed), the stuck dealer, and defending alone, under one of the project's rule
    presets drawn with the seed; graded by foresight. The options are exactly the engine's
    legal actions at that decision under those rules."""
    rules = _preset(rng)
    dealer = rng.choice(list(Seat))
    roll = rng.random()
    if level == 1:
        passes = rng.randrange(0, 4)
    elif level == 2:
        passes = rng.randrange(0, 4) if roll < 0.3 else rng.randrange(4, 7)
    else:
        passes = 7 if roll < 0.4 else rng.randrange(0, 7)
    defend = rules.defend_alone and level >= 2 and rng.random() < 0.4
    while True:
        if defend:
            state = _defend_state(rng, rules, dealer)
        else:
            state = _fresh_state(rng, rules, dealer)
            for _ in range(passes):
                state.apply(Call("pass"))
        seat = state.current_seat
        assert seat is not None
        hand = [c for c in state.hands[seat] if c is not None]
        if level == 3 and not defend and passes < 4:
            # The alone decisions: a hand with three trumps or more in the upcard's suit.
            trumps = [c for c in hand if c.suit is state.upcard.suit]
            if len(trumps) < 3:
                continue
        break
    actions = state.legal_actions()
    order = [call_label(a) for a in actions]
    by_label: dict[str, Action] = dict(zip(order, actions, strict=True))
    grading_seed = rng.getrandbits(64)
    values = call_foresight(state, seat, SAMPLES, random.Random(grading_seed), standard_policy)
    labelled = {label: values[by_label[label]] for label in order}
    best, accepted, numbers, losses = grade_options(labelled, order, grading_seed)

    ranked = sorted(order, key=lambda label: -labelled[label].mean)
    figures = "; ".join(f"{call_words(label)} {labelled[label].mean:+.2f}" for label in ranked)
    explanation = (
        f"Over {SAMPLES} deals of the cards you cannot see, each played out (the rest of the "
        f"auction by the standard policy, the cards double dummy), {call_words(best)} is "
        f"worth the most: {figures} points a hand for your side. Every call within "
        f"{MIN_TOLERANCE} points of the best (or twice its sampling error) counts as right. "
        f"{SCORE_TEXT}"
    )
    bot_action, reason = decide_with_reason(observe(state, seat))
    explanation += f" The Normal computer player would choose {call_words(call_label(bot_action))}"
    explanation += f": {reason[0].lower() + reason[1:]}" if reason else "."
    if not explanation.endswith("."):
        explanation += "."

    if state.phase is Phase.DEFEND:
        assert state.maker is not None
        round_text = (
            f"Trump is made and you defend against {state.maker.word}: do you defend alone "
            f"(your partner, {seat.partner.word}, sits out) or pass and defend together?"
        )
    elif state.stuck:
        round_text = (
            "You are the dealer and everyone else passed twice: you must name a suit "
            "(stick the dealer)."
        )
    elif state.passes == 7:
        round_text = (
            "You are the dealer and everyone else passed twice: if you pass too, the hand is "
            "thrown in and dealt again."
        )
    elif state.round == 1:
        round_text = "First round of bidding."
        if rules.canadian_loner and seat is dealer.partner:
            round_text += " You are the dealer's partner: you may order up only by going alone."
    else:
        round_text = "Second round of bidding."
    sorted_hand = [c for c in sort_cards(list(hand)) if c is not None]
    prompt = (
        f"{table_words(rules)} The score is 0–0. {dealer.word} dealt and turned up "
        f"{the(state.upcard)}. You are {seat.word}. Nobody declared a farmer's hand. "
        if rules.farmers_hand != "off"
        else f"{table_words(rules)} The score is 0–0. {dealer.word} dealt and turned up "
        f"{the(state.upcard)}. You are {seat.word}. "
    )
    prompt += f"{auction_story(state.auction)} {round_text} What do you call?"
    position: dict[str, Any] = {
        "rules": rules_json(rules, *RULE_OPTIONS),
        "dealer": dealer.value,
        "seat": seat.value,
        "hand": [str(c) for c in sorted_hand],
        "upcard": str(state.upcard),
        "auction": record_from_state(state)["auction"],
        "score": {"NS": 0, "EW": 0},
    }
    return _graded_draft(
        "call", prompt, position, order, best, accepted, explanation, losses, numbers, call_words
    )


# -- the best card -------------------------------------------------------------------------


def _card_decision(state: HandState, level: int) -> bool:
    seat = state.current_seat
    if seat is None or state.phase is not Phase.PLAY:
        return False
    first, last = {1: (12, 16), 2: (4, 12), 3: (1, 8)}[level]
    return first <= state.cards_played < last and len(state.legal_cards(seat)) >= 2


def best_card_question(rng: random.Random, level: int) -> Draft:
    """Which card should you play? Only positions where one card is clearly best:
    ``CLEAR_MARGIN`` points or more ahead of the second best."""
    rules = PRESETS["standard"]
    grading_rng = random.Random(rng.getrandbits(64))
    while True:
        trump = rng.choice(list(Suit))
        lone = level == 3 and rng.random() < 0.3
        state = start_hand(rng, rules, trump, rng.choice(list(Seat)), alone=lone)
        while state.phase is Phase.PLAY:
            seat = state.current_seat
            assert seat is not None
            if _card_decision(state, level):
                seed = grading_rng.getrandbits(64)
                values = card_foresight(state, seat, SAMPLES, random.Random(seed))
                means = sorted((v.mean for v in values.values()), reverse=True)
                if means[0] - means[1] >= CLEAR_MARGIN:
                    return _best_card_draft(state, seat, trump, values, seed)
            state.apply(standard_policy(state, seat))


def _best_card_draft(
    state: HandState, seat: Seat, trump: Suit, values: dict[Card, OptionValue], seed: int
) -> Draft:
    legal = state.legal_cards(seat)
    order = [str(c) for c in sort_cards(list(legal)) if c is not None]
    labelled = {str(card): value for card, value in values.items()}
    best, accepted, numbers, losses = grade_options(labelled, order, seed)
    ranked = sorted(order, key=lambda label: -labelled[label].mean)
    second = ranked[1]
    hand = [c for c in sort_cards(list(state.hands[seat])) if c is not None]
    trick = state.current_trick
    cards = list(trick.cards) if trick is not None else []
    explanation = (
        f"Over {SAMPLES} deals of the cards you cannot see that agree with the play so far, "
        f"each played out double dummy, {the(parse_card(best))} is worth "
        f"{labelled[best].mean:+.2f} points a hand for your side and the next best, "
        f"{the(parse_card(second))}, {labelled[second].mean:+.2f}. Every "
        f"card within {MIN_TOLERANCE} points of the best (or twice its sampling error) counts "
        f"as right."
    )
    assert state.maker is not None
    so_far = "You lead this trick." if not cards else "The trick so far: " + trick_text(cards) + "."
    lone = (
        f" {state.maker.word} is going alone; {state.maker.partner.word} sits out."
        if state.alone
        else ""
    )
    prompt = (
        f"{trump_sentence(trump)} {state.maker.word} named them.{lone} You are {seat.word}. "
        f"Tricks so far: your side {state.tricks_won[seat.team]}, the other side "
        f"{state.tricks_won[seat.team.other]}. {so_far} The whole hand so far is in the "
        f"record. Which card do you play?"
    )
    position: dict[str, Any] = {
        "rules": rules_json(state.rules),
        "dealer": state.dealer.value,
        "trump": trump.value,
        "seat": seat.value,
        "hand": [str(c) for c in hand],
        "trick": [[s.value, str(c)] for s, c in cards],
        "record": record_from_state(state.seen_by(seat)),
    }
    if state.alone:
        position["alone"] = state.maker.value
    return _graded_draft(
        "best_card",
        prompt,
        position,
        order,
        best,
        accepted,
        explanation,
        losses,
        numbers,
        lambda label: f"playing {the(parse_card(label))}",
    )


# -- the dealer's discard ------------------------------------------------------------------


def _orderer(dealer: Seat, level: int, rng: random.Random) -> Seat:
    """Who orders up at this level: the dealer, then the partner, then an opponent."""
    if level == 1:
        return dealer
    if level == 2:
        return dealer.partner
    return rng.choice([dealer.next, dealer.partner.next])


def discard_question(rng: random.Random, level: int) -> Draft:
    """Which card should the dealer discard after the upcard is ordered up? Graded by
    foresight over the unseen cards; asked only where some discard is clearly worse.

    The order up is one the standard policy makes (so the hand is one where it happens at a
    real table): at level 1 the dealer picks it up, at level 2 the partner orders it up, at
    level 3 an opponent does, and the dealer discards as a defender. The table's rules are
    one of the project's presets, drawn with the seed; under defending alone the defenders
    decide by the standard policy before the discard.
    """
    # Under the Canadian loner the dealer's partner orders up only alone, and the dealer of
    # a lone partner does not discard: no level-2 question there.
    rules = _preset(rng, exclude=("canadian-loner",) if level == 2 else ())
    grading_rng = random.Random(rng.getrandbits(64))
    while True:
        dealer = rng.choice(list(Seat))
        orderer = _orderer(dealer, level, rng)
        state = _fresh_state(rng, rules, dealer)
        while state.current_seat is not orderer:
            state.apply(Call("pass"))
        action = standard_policy(state, orderer)
        if not isinstance(action, Call) or action.kind != "order_up" or action.alone:
            continue
        state.apply(action)
        while state.phase is Phase.DEFEND:
            assert state.current_seat is not None
            state.apply(standard_policy(state, state.current_seat))
        if state.phase is not Phase.DISCARD:
            continue
        seed = grading_rng.getrandbits(64)
        values = discard_foresight(state, SAMPLES, random.Random(seed))
        labelled = {str(card): value for card, value in values.items()}
        hand = [c for c in sort_cards(list(state.hands[dealer])) if c is not None]
        order = [str(c) for c in hand]
        best, accepted, numbers, losses = grade_options(labelled, order, seed)
        if len(accepted) == len(order):
            continue  # every discard is as good as the best: nothing to learn here
        break
    trump = state.upcard.suit
    ranked = sorted(order, key=lambda label: -labelled[label].mean)
    figures = "; ".join(f"{the(parse_card(label))} {labelled[label].mean:+.2f}" for label in ranked)
    explanation = (
        f"Over {SAMPLES} deals of the cards you cannot see, each played out double dummy, "
        f"discarding {the(parse_card(best))} is worth the most: {figures} points a hand for "
        f"your side. Every discard within {MIN_TOLERANCE} points of the best (or twice its "
        f"sampling error) counts as right. {SCORE_TEXT}"
    )
    void = [
        s
        for s in Suit
        if s is not trump
        and sum(effective_suit(c, trump) is s for c in hand) == 1
        and effective_suit(parse_card(best), trump) is s
    ]
    if void:
        explanation += (
            f" Throwing away your only {void[0].plural[:-1]} leaves you void in "
            f"{void[0].plural}, free to trump them."
        )
    passes = [seat.word for seat, call in state.auction if call.kind == "pass"]
    if orderer is dealer:
        bidding = f"{', '.join(passes)} passed and you picked it up"
    else:
        side = "your partner" if orderer is dealer.partner else "an opponent"
        bidding = (f"{', '.join(passes)} passed; " if passes else "") + (
            f"{orderer.word} ({side}) ordered it up"
        )
    if state.defender_alone is not None:
        lone = state.defender_alone
        who = (
            "You"
            if lone is dealer
            else f"{lone.word} ({'your partner' if lone is dealer.partner else 'an opponent'})"
        )
        bidding += f"; {who} chose to defend alone, and {lone.partner.word} sits out"
    elif rules.defend_alone:
        bidding += "; nobody chose to defend alone"
    farmer = " Nobody declared a farmer's hand." if rules.farmers_hand != "off" else ""
    prompt = (
        f"{table_words(rules)} The score is 0–0. You are {dealer.word}, the dealer, and "
        f"turned up {the(state.upcard)}.{farmer} {bidding}. {trump.plural.capitalize()} are "
        f"trump and {the(state.upcard)} joins your hand. You hold six cards: which one do "
        f"you discard?"
    )
    position: dict[str, Any] = {
        "rules": rules_json(rules, *RULE_OPTIONS),
        "dealer": dealer.value,
        "seat": dealer.value,
        "trump": trump.value,
        "maker": orderer.value,
        "hand": order,
        "upcard": str(state.upcard),
        "auction": record_from_state(state)["auction"],
        "score": {"NS": 0, "EW": 0},
    }
    if state.defender_alone is not None:
        position["defender_alone"] = state.defender_alone.value
    return _graded_draft(
        "discard",
        prompt,
        position,
        order,
        best,
        accepted,
        explanation,
        losses,
        numbers,
        lambda label: f"discarding {the(parse_card(label))}",
    )
