"""Questions of judgement: the best call, the dealer's discard, the best card. Graded by
foresight, to a stated precision, before the question is ever served.

The unseen cards are dealt at random, consistently with what the player has seen; each
option is followed to the end of the hand (the rest of the auction by the standard
policy, the play double dummy) and is worth its average net points for the deciding side
(its points minus the other side's). Every option is valued on the *same* layouts, and
layouts are added, a batch at a time, until the standard error of every option's loss
against the best is at most 0.03 points (``analysis.solver.precision``, :data:`PRECISION`).

**What is marked right.** The best option, and any option equal to it: within 0.05 points
of it beyond three standard errors, and sure (beyond three standard errors) not to lose
more than 0.15, the review's threshold for an inaccuracy. Such options are all accepted and
the explanation says they are equal. **What is marked wrong**: an option that loses at
least 0.15 points beyond three standard errors (a best-card question asks for a clearer
margin, :data:`CLEAR_MARGIN`). A position where some option is neither, or that does not
reach the precision within the cap of layouts, is not asked: another is drawn from the
same seed, so every question stays reproducible by its seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from analysis.solver.explain import explain_call, explain_card
from analysis.solver.foresight import (
    OptionValue,
    SolverCache,
    call_foresight,
    card_foresight,
    discard_foresight,
)
from analysis.solver.precision import BEST, EQUAL, WORSE, Graded, Measure, Precision, grade_paired
from analysis.solver.review import standard_policy
from games.engine.cards import Seat, Suit, effective_suit, parse_card, sort_cards
from games.engine.game import deal
from games.engine.hand import Action, Call, HandState, Phase
from games.engine.record import record_from_state
from games.engine.rules import PRESETS, Rules
from games.engine.words import (
    and_list,
    auction_story,
    call_label,
    call_words,
    capital,
    describe_hand,
    short_name,
    table_words,
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
    "PRECISION",
    "VALUE_TEXT",
    "best_card_question",
    "call_question",
    "discard_question",
    "graded_numbers",
    "table_words",
]

PRECISION = Precision()
"""How precisely the calls and discards are graded (``analysis.solver.precision``): a
standard error of at most 0.03 points on every option's loss, from batches of 400 layouts
up to 8,000; equal within 0.05, accepted only if sure to lose at most 0.15, wrong only if
sure to lose at least 0.15 (each beyond three standard errors)."""
CLEAR_MARGIN = 0.5
"""A best-card question is asked only where every card marked wrong loses at least this
much against the best, beyond three standard errors."""
VALUE_TEXT = (
    "Each answer is graded by the points this hand is expected to bring your side: your "
    "points minus the other side's, averaged over deals of the cards you cannot see."
)
"""What every judgement question's prompt says its answers are worth."""
SCORE_TEXT = (
    "The score is 0–0, so what counts is the points this hand is expected to win, and that "
    "is how the options are graded."
)
"""The questions are asked at 0–0: foresight values the hand's expected points, which is
what a decision is worth when neither side is near the target. Near the end of a game a
call is worth what it does to the chance of winning, which the analysis does not measure,
so the quiz does not pretend to grade such a score."""
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


def _preset(rng: random.Random, exclude: tuple[str, ...] = ()) -> Rules:
    """One of the project's presets, drawn with the seed."""
    return PRESETS[rng.choice([name for name in PRESETS if name not in exclude])]


def _verified(
    measure: Measure, order: list[str], rng: random.Random, precision: Precision
) -> tuple[Graded, int] | None:
    """The decision graded to ``precision`` on layouts drawn from a seed drawn from ``rng``
    (returned with it, so anyone can reproduce the figures), or ``None`` when it cannot be
    graded clearly: the question is then not asked."""
    seed = rng.getrandbits(64)
    graded = grade_paired(measure, order, seed, precision)
    return None if graded is None else (graded, seed)


def graded_numbers(graded: Graded, seed: int, precision: Precision) -> dict[str, Any]:
    """The figures behind a graded question, as the quiz API's ``numbers`` gives them: the
    layouts (``samples``) and their seed, the rule, and each option's expected points,
    loss against the best, their standard errors and its verdict."""
    return {
        "samples": graded.layouts,
        "seed": seed,
        "target_se": precision.target_se,
        "tolerance": (
            f"right: the best, or within {precision.equal_band} of it and sure to lose at most "
            f"{precision.max_accepted}; wrong: sure to lose at least {precision.margin} "
            f"(each beyond {precision.z:g} standard errors of the loss)"
        ),
        "options": [
            {
                "option": o.label,
                "expected_points": round(o.mean, 3),
                "standard_error": round(o.se, 3),
                "loss": round(o.loss, 3),
                "loss_se": round(o.loss_se, 3),
                "accepted": o.verdict in (BEST, EQUAL),
                "verdict": o.verdict,
            }
            for o in graded.options
        ],
    }


def _figures(graded: Graded, words: Callable[[str], str]) -> str:
    """Every option's value ± its standard error, the best first."""
    ranked = sorted(graded.options, key=lambda o: -o.mean)
    return "; ".join(f"{words(o.label)} {o.mean:+.2f} ± {o.se:.2f}" for o in ranked)


def _grading_words(graded: Graded, words: Callable[[str], str], precision: Precision) -> str:
    """How the options were graded and which are equal, in words."""
    text = (
        f"The same {graded.layouts:,} deals were used for every option, enough for each "
        f"option's loss against the best to be known to within {precision.target_se:.2f} "
        f"points (one standard error)."
    )
    equal = [o for o in graded.options if o.verdict == EQUAL]
    if equal:
        names = and_list([words(graded.best), *(words(o.label) for o in equal)])
        gaps = and_list(
            [
                f"{words(o.label)} the same in every deal"
                if o.loss_se == 0 and o.loss == 0
                else f"{words(o.label)} {o.loss:.2f} ± {o.loss_se:.2f} less"
                for o in equal
            ]
        )
        text += (
            f" {capital(names)} are equally good ({gaps}): within the "
            f"{precision.equal_band:.2f} points that count as equal, so each is marked right."
        )
    text += (
        f" Every option marked wrong gives up at least {precision.margin:.2f} points, beyond "
        f"three standard errors."
    )
    return text


def _shares(o: Any) -> str:
    return (
        f" Give or take {o.loss_se:.2f}; it scores less in {o.worse_in:.0%} of the deals "
        f"and more in {o.better_in:.0%}."
    )


def _graded_draft(
    kind: str,
    prompt: str,
    position: dict[str, Any],
    graded: Graded,
    seed: int,
    precision: Precision,
    explanation: str,
    why_wrong: Callable[[str], str],
) -> Draft:
    """A question graded by expected points: one choice to make among the options, the
    accepted ones right, each one marked wrong told what it gives up (``why_wrong``)."""
    order = [o.label for o in graded.options]
    feedback = {
        o.label: why_wrong(o.label) + _shares(o) for o in graded.options if o.verdict == WORSE
    }
    return Draft(
        kind=kind,
        prompt=prompt,
        position=position,
        choices=order,
        multiple=False,
        grading=Grading(
            answer=[graded.best],
            accepted=graded.accepted,
            explanation=explanation,
            feedback=feedback,
            numbers=graded_numbers(graded, seed, precision),
        ),
    )


def _call_measure(state: HandState, seat: Seat) -> Measure:
    """Values of ``seat``'s calls, a batch of layouts at a time (one solver cache for all)."""
    solvers: SolverCache = {}

    def measure(count: int, layouts: random.Random) -> dict[str, OptionValue]:
        values = call_foresight(state, seat, count, layouts, standard_policy, solvers)
        return _labelled(values, call_label)

    return measure


def _discard_measure(state: HandState) -> Measure:
    """Values of the dealer's discards, a batch of layouts at a time."""
    solvers: SolverCache = {}

    def measure(count: int, layouts: random.Random) -> dict[str, OptionValue]:
        return _labelled(discard_foresight(state, count, layouts, solvers), str)

    return measure


def _card_measure(state: HandState, seat: Seat, solvers: SolverCache) -> Measure:
    """Values of ``seat``'s legal cards, a batch of layouts at a time."""

    def measure(count: int, layouts: random.Random) -> dict[str, OptionValue]:
        return _labelled(card_foresight(state, seat, count, layouts, solvers), str)

    return measure


def _labelled(values: dict[Any, OptionValue], name: Callable[[Any], str]) -> dict[str, OptionValue]:
    return {name(key): value for key, value in values.items()}


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
        state, seat = _call_state(rng, rules, dealer, passes, defend, level)
        actions = state.legal_actions()
        order = [call_label(a) for a in actions]
        by_label: dict[str, Action] = dict(zip(order, actions, strict=True))
        verified = _verified(_call_measure(state, seat), order, rng, PRECISION)
        if verified is not None and any(o.verdict == WORSE for o in verified[0].options):
            break  # graded clearly, and some call is wrong: something to learn
    assert verified is not None
    graded, grading_seed = verified
    best = graded.best
    hand = [c for c in state.hands[seat] if c is not None]
    explanation = (
        f"Over {graded.layouts:,} deals of the cards you cannot see, each played out (the "
        f"rest of the auction by the standard policy, the cards double dummy), "
        f"{call_words(best)} is worth the most. Points a hand for your side, ± one standard "
        f"error: {_figures(graded, call_words)}. {_grading_words(graded, call_words, PRECISION)}"
    )
    strain = _strain_of(by_label[best], state)
    if isinstance(strain, Suit):
        cards = list(hand)
        if best.startswith("order_up") and seat is state.dealer:
            cards.append(state.upcard)
        explanation += (
            f" With {strain.plural} trump you hold {_lower(describe_hand(cards, strain))}."
        )
    bot_action, reason = decide_with_reason(observe(state, seat))
    explanation += f" The Normal computer player would choose {call_words(call_label(bot_action))}"
    explanation += f": {_lower(reason)}" if reason else "."
    if not explanation.endswith("."):
        explanation += "."
    explanation += f" {SCORE_TEXT}"

    def why_wrong(label: str) -> str:
        o, top = graded.option(label), graded.option(best)
        return explain_call(
            chosen=label,
            best=best,
            chosen_ev=o.mean,
            best_ev=top.mean,
            loss=o.loss,
            samples=graded.layouts,
            hand=hand,
            upcard=state.upcard,
            gets_upcard=seat is state.dealer,
            best_strain=strain,
        )

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
    prompt += f"{auction_story(state.auction)} {round_text} What do you call? {VALUE_TEXT}"
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
        "call", prompt, position, graded, grading_seed, PRECISION, explanation, why_wrong
    )


def _call_state(
    rng: random.Random, rules: Rules, dealer: Seat, passes: int, defend: bool, level: int
) -> tuple[HandState, Seat]:
    """A bidding decision of the kind drawn: after ``passes`` passes, or the first
    defender's choice to defend alone; at level 3 in round one, a hand of three trumps or
    more in the upcard's suit (the alone decisions)."""
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
            trumps = [c for c in hand if c.suit is state.upcard.suit]
            if len(trumps) < 3:
                continue
        return state, seat


def _strain_of(action: Action, state: HandState) -> Suit | None:
    """The trump suit a call makes, if it makes one."""
    if isinstance(action, Call) and action.kind == "order_up":
        return state.upcard.suit
    if isinstance(action, Call) and action.kind == "name" and isinstance(action.suit, Suit):
        return action.suit
    return None


def _lower(text: str) -> str:
    return text[0].lower() + text[1:] if text else text


# -- the best card -------------------------------------------------------------------------


def _card_decision(state: HandState, level: int) -> bool:
    seat = state.current_seat
    if seat is None or state.phase is not Phase.PLAY:
        return False
    first, last = {1: (12, 16), 2: (4, 12), 3: (1, 8)}[level]
    return first <= state.cards_played < last and len(state.legal_cards(seat)) >= 2


def best_card_question(rng: random.Random, level: int) -> Draft:
    """Which card should you play? Only positions where the best card (with any card equal
    to it) beats every other by :data:`CLEAR_MARGIN` points or more, beyond three standard
    errors, graded to :data:`PRECISION`."""
    rules = PRESETS["standard"]
    precision = PRECISION.with_margin(CLEAR_MARGIN)
    grading_rng = random.Random(rng.getrandbits(64))
    while True:
        trump = rng.choice(list(Suit))
        lone = level == 3 and rng.random() < 0.3
        state = start_hand(rng, rules, trump, rng.choice(list(Seat)), alone=lone)
        solvers: SolverCache = {}
        while state.phase is Phase.PLAY:
            seat = state.current_seat
            assert seat is not None
            if _card_decision(state, level):
                order = [str(c) for c in sort_cards(list(state.legal_cards(seat))) if c]

                measure = _card_measure(state.copy(), seat, solvers)
                verified = _verified(measure, order, grading_rng, precision)
                if verified is not None and any(o.verdict == WORSE for o in verified[0].options):
                    return _best_card_draft(state, seat, trump, *verified, precision)
            state.apply(standard_policy(state, seat))


def _best_card_draft(
    state: HandState, seat: Seat, trump: Suit, graded: Graded, seed: int, precision: Precision
) -> Draft:
    best = graded.best

    def card_words(label: str) -> str:
        return f"the {short_name(parse_card(label), trump)}"

    hand = [c for c in sort_cards(list(state.hands[seat])) if c is not None]
    trick = state.current_trick
    cards = list(trick.cards) if trick is not None else []
    top = [o for o in graded.options if o.verdict == WORSE]
    least = min(o.worse_in for o in top)
    explanation = (
        f"Over {graded.layouts:,} deals of the cards you cannot see that agree with the play "
        f"so far, each played out double dummy, {card_words(best)} is worth the most. Points "
        f"a hand for your side, ± one standard error: {_figures(graded, card_words)}. "
        f"{_grading_words(graded, card_words, precision)} Every card marked wrong does worse "
        f"than {card_words(best)} in at least {least:.0%} of the deals. {SCORE_TEXT}"
    )
    assert state.maker is not None
    so_far = "You lead this trick." if not cards else "The trick so far: " + trick_text(cards) + "."
    lone = (
        f" {state.maker.word} is going alone; {state.maker.partner.word} sits out."
        if state.alone
        else ""
    )
    prompt = (
        f"{table_words(state.rules)} The score is 0–0. {trump_sentence(trump)} "
        f"{state.maker.word} named them.{lone} You are {seat.word}. "
        f"Tricks so far: your side {state.tricks_won[seat.team]}, the other side "
        f"{state.tricks_won[seat.team.other]}. {so_far} The whole hand so far is in the "
        f"record. Which card do you play? {VALUE_TEXT}"
    )
    position: dict[str, Any] = {
        "rules": rules_json(state.rules),
        "dealer": state.dealer.value,
        "trump": trump.value,
        "seat": seat.value,
        "hand": [str(c) for c in hand],
        "trick": [[s.value, str(c)] for s, c in cards],
        "record": record_from_state(state.seen_by(seat)),
        "score": {"NS": 0, "EW": 0},
    }
    if state.alone:
        position["alone"] = state.maker.value

    def why_wrong(label: str) -> str:
        return explain_card(
            kind="play",
            seat=seat,
            chosen=parse_card(label),
            best=parse_card(best),
            loss=graded.option(label).loss,
            samples=graded.layouts,
            trump=trump,
            chosen_line=None,
            best_line=None,
        )

    return _graded_draft(
        "best_card", prompt, position, graded, seed, precision, explanation, why_wrong
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
        hand = [c for c in sort_cards(list(state.hands[dealer])) if c is not None]
        order = [str(c) for c in hand]
        verified = _verified(_discard_measure(state), order, grading_rng, PRECISION)
        if verified is None or not any(o.verdict == WORSE for o in verified[0].options):
            continue  # unclear, or every discard as good as the best: nothing to learn here
        break
    assert verified is not None
    graded, seed = verified
    best = graded.best
    trump = state.upcard.suit

    def discard_words(label: str) -> str:
        return f"discarding the {short_name(parse_card(label), trump)}"

    explanation = (
        f"Over {graded.layouts:,} deals of the cards you cannot see, each played out double "
        f"dummy, {discard_words(best)} is worth the most. Points a hand for your side, ± one "
        f"standard error: {_figures(graded, discard_words)}. "
        f"{_grading_words(graded, discard_words, PRECISION)}"
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
    explanation += f" {SCORE_TEXT}"
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
        f"you discard? {VALUE_TEXT}"
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

    def why_wrong(label: str) -> str:
        return explain_card(
            kind="discard",
            seat=dealer,
            chosen=parse_card(label),
            best=parse_card(best),
            loss=graded.option(label).loss,
            samples=graded.layouts,
            trump=trump,
            chosen_line=None,
            best_line=None,
        )

    return _graded_draft(
        "discard", prompt, position, graded, seed, PRECISION, explanation, why_wrong
    )
