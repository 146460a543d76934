"""Questions about the table's rules: who leads the first trick, what a result scores.

Each kind has one answer, worked out here from the engine for the quiz's questions and the
course's exercises alike: :func:`lead_state` (the hand as its first trick is led) and
:func:`points_scored` (``scoring_row``), with the course's explanations of them
(:func:`explain_lead`, :func:`explain_points`), which ``lessons.content`` calls.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import asdict, replace
from typing import Any, cast

from games.engine.cards import Card, Seat, Suit, Team
from games.engine.hand import Call, Discard, HandState, Phase
from games.engine.rules import PRESETS, LoneLead, Points, Rules, format_rules
from games.engine.scoring import scoring_row
from games.engine.words import team_word

from .question import Draft, Explanation, Grading
from .tricks import fixed_deal, skip_farmers

__all__ = [
    "explain_lead",
    "explain_points",
    "lead_state",
    "leader_question",
    "lone_lead_text",
    "points_question",
    "points_scored",
    "rules_json",
    "scoring_text",
]


def rules_json(rules: Rules, *options: str) -> dict[str, Any]:
    """The rules as a record writes them, naming the preset, with ``options`` spelled out
    even where they keep the preset's value, so a reader needs no table of presets."""
    out = format_rules(rules)
    if not out:
        out = {"preset": "standard"}
    for option in options:
        value = getattr(rules, option)
        out[option] = asdict(value) if isinstance(value, Points) else value
    return out


# -- the first lead --------------------------------------------------------------------------


def lead_state(
    rules: Rules, dealer: Seat, maker: Seat, *, alone: bool, defender_alone: Seat | None
) -> HandState:
    """The hand as its first trick is about to be led (the leader is its ``current_seat``):
    ``maker`` orders up, alone or not, and ``defender_alone`` defends alone where it may.

    Raises :class:`~games.engine.errors.IllegalActionError` where the rules forbid the call."""
    state = fixed_deal(rules, dealer)
    skip_farmers(state)
    while state.current_seat is not maker:
        state.apply(Call("pass"))
    state.apply(Call("order_up", None, alone))
    while state.phase is Phase.DEFEND:
        seat = state.current_seat
        state.apply(Call("defend_alone") if seat is defender_alone else Call("pass"))
    if state.phase is Phase.DISCARD:
        state.apply(Discard(cast(Card, state.hands[dealer][0])))
    return state


def lone_lead_text(rules: Rules) -> str:
    """Who leads the first trick of a lone hand at this table, as a question states it."""
    if rules.lone_lead == "left_of_maker":
        return "the first lead of a lone hand goes to the lone maker's left"
    return "the first lead of a lone hand goes to the first seat playing on the dealer's left"


def explain_lead(state: HandState) -> Explanation:
    """Why the seat to lead in ``state`` (a :func:`lead_state`) leads; of each seat sitting
    out, that it never leads."""
    dealer, maker, leader = state.dealer, state.maker, state.current_seat
    assert maker is not None and leader is not None
    sitting = [s for s in Seat if state.sits_out(s)]
    if state.alone and state.rules.lone_lead == "left_of_maker":
        first = maker.next
        why = f"The lone maker is {maker.word}, and the seat on its left is {first.word}"
    else:
        first = dealer.next
        why = f"The seat on the dealer's left ({dealer.word} dealt) is {first.word}"
    if first in sitting:
        why += (
            f", but {first.word} sits out, so the lead passes on to the next seat playing: "
            f"{leader.word}."
        )
    else:
        why += f", who plays this hand and leads: {leader.word}."
    if not state.alone and state.defender_alone is None:
        why = (
            f"The seat on the dealer's left always leads the first trick when nobody goes "
            f"alone: {dealer.word} dealt, so {leader.word} leads."
        )
    feedback = {s.value: f"{s.word} sits out this hand and never leads." for s in sitting}
    return Explanation(why, feedback)


def leader_question(rng: random.Random, level: int) -> Draft:
    """Who leads the first trick? The dealer's left, unless a lone hand makes a seat sit out,
    or the table's rule gives the lead to the lone maker's left."""
    dealer = rng.choice(list(Seat))
    maker = rng.choice(list(Seat))
    alone = level >= 2 and rng.random() < 0.8
    lone_lead: LoneLead = "left_of_maker" if level == 3 and rng.random() < 0.5 else "left_of_dealer"
    defend = level == 3 and rng.random() < 0.4
    rules = replace(PRESETS["defend-alone" if defend else "standard"], lone_lead=lone_lead)
    defender: Seat | None = None
    if defend:
        defender = rng.choice([maker.next, maker.next.partner])
    if level == 2 and alone and rng.random() < 0.6:
        # The interesting lone hands: the seat on the dealer's left is the one sitting out.
        maker = dealer.next.partner
    trump = rng.choice(list(Suit))
    state = lead_state(rules, dealer, maker, alone=alone, defender_alone=defender)
    leader = state.current_seat
    assert leader is not None

    position: dict[str, Any] = {
        "rules": rules_json(rules, "lone_lead", "defend_alone"),
        "dealer": dealer.value,
        "maker": maker.value,
    }
    facts = [f"{dealer.word} dealt and {maker.word} made {trump.plural} trump"]
    if alone:
        position["alone"] = maker.value
        facts[0] += f", going alone ({maker.partner.word} sits out)"
    if defender is not None:
        position["defender_alone"] = defender.value
        facts.append(f"{defender.word} defends alone ({defender.partner.word} sits out)")
    prompt = (
        ". ".join(facts) + f". At this table {lone_lead_text(rules)}. Who leads the first trick?"
    )
    why = explain_lead(state)
    return Draft(
        kind="leader",
        prompt=prompt,
        position=position,
        choices=[s.value for s in Seat],
        multiple=False,
        grading=Grading(
            answer=[leader.value],
            accepted=[leader.value],
            explanation=why.text,
            feedback=why.feedback,
        ),
    )


# -- points ------------------------------------------------------------------------------------


def points_scored(
    rules: Rules,
    maker: Seat,
    maker_tricks: int,
    *,
    no_trump: bool,
    alone: bool,
    defender_alone: bool,
) -> tuple[str, int, Team]:
    """The row of the scoring table a result falls in, its points and the team scoring."""
    row, value, to_makers = scoring_row(
        rules,
        no_trump=no_trump,
        alone=alone,
        defender_alone=defender_alone,
        maker_tricks=maker_tricks,
    )
    return row, value, maker.team if to_makers else maker.team.other


_ROW_WORDS = {
    "make": "The makers took {k}, enough to make it but not a march: {pts} to {makers}.",
    "march": "The makers took all five tricks, a march: {pts} to {makers}.",
    "lone_march": "The lone maker took all five tricks, a lone march: {pts} to {makers}.",
    "euchre": "The makers took only {k}, fewer than 3: they are euchred, and the defenders, "
    "{defenders}, score {pts}.",
    "lone_maker_euchred": "The lone maker took only {k}, fewer than 3: euchred, and the "
    "defenders, {defenders}, score {pts}.",
    "lone_defender_euchre": "The makers took only {k} against a lone defender: a lone "
    "defender's euchre, {pts} to {defenders}.",
    "no_trump_make": "At no-trump, making it with 3 or 4 tricks scores {pts}: to {makers}.",
}


def _point_values(rules: Rules) -> list[int]:
    p = rules.points
    values = {p.make, p.march, p.lone_march, p.euchre, p.lone_maker_euchred}
    if rules.defend_alone:
        values.add(p.lone_defender_euchre)
    if rules.no_trump:
        values.add(p.no_trump_make)
    return sorted(v for v in values if v > 0)


def points_question(rng: random.Random, level: int) -> Draft:
    """What does this result score, and for which side? Every row of the scoring table."""
    rules = PRESETS["standard"]
    if level == 3:
        rules = PRESETS[rng.choice(["defend-alone", "no-trump", "standard"])]
        if rng.random() < 0.3:
            rules = replace(
                rules,
                points=replace(
                    rules.points,
                    no_trump_make=rng.choice([1, 2]),
                    lone_march=rng.choice([4, 5]),
                ),
            )
    no_trump = rules.no_trump and rng.random() < 0.6
    alone = level >= 2 and rng.random() < 0.5
    defender: Seat | None = None
    maker = rng.choice(list(Seat))
    if rules.defend_alone and rng.random() < 0.6:
        defender = rng.choice([maker.next, maker.partner.next])
    # Above level 1 the rows that catch people out (2 tricks, a march) come up more often.
    tricks = rng.choice([0, 1, 2, 3, 4, 5] if level == 1 else [0, 1, 2, 2, 3, 4, 5, 5])
    trump = "NT" if no_trump else rng.choice(list(Suit)).value
    row, value, scorer = points_scored(
        rules,
        maker,
        tricks,
        no_trump=no_trump,
        alone=alone,
        defender_alone=defender is not None,
    )
    makers = maker.team
    answer = f"{scorer.value} {value}"

    result: dict[str, Any] = {"trump": trump, "maker": maker.value, "alone": alone}
    if rules.defend_alone:
        result["defender_alone"] = None if defender is None else defender.value
    result["maker_tricks"] = tricks
    options = ["points"] + (["no_trump"] if rules.no_trump else [])
    position = {"rules": rules_json(rules, "defend_alone", *options), "result": result}

    strain = "no-trump" if no_trump else Suit(trump).plural
    facts = f"{maker.word} made {strain}" + (" trump" if not no_trump else "")
    if alone:
        facts += f" and went alone ({maker.partner.word} sat out)"
    if defender is not None:
        facts += f"; {defender.word} defended alone"
    facts += f". {team_word(makers)}, the makers, took {tricks} trick" + (
        "" if tricks == 1 else "s"
    )
    prompt = (
        f"{facts}. Scoring at this table: {scoring_text(rules)}. "
        "Which side scores, and how many points?"
    )

    choices = [f"{team.value} {v}" for team in (makers, makers.other) for v in _point_values(rules)]
    choices = sorted(set(choices) | {answer}, key=lambda c: (c[:2], int(c[3:])))
    why = explain_points(
        rules,
        maker,
        tricks,
        no_trump=no_trump,
        alone=alone,
        defender_alone=defender is not None,
        choices=choices,
    )
    return Draft(
        kind="points",
        prompt=prompt,
        position=position,
        choices=choices,
        multiple=False,
        grading=Grading(
            answer=[answer], accepted=[answer], explanation=why.text, feedback=why.feedback
        ),
    )


def scoring_text(rules: Rules) -> str:
    """The points of every result these rules can give, as a points question states them:
    the rules page's scoring, with the no-trump make where no-trump is played."""
    text = dict(rules.describe())["Scoring"]
    if rules.no_trump:
        text += f", no-trump make {rules.points.no_trump_make}"
    return text


def explain_points(
    rules: Rules,
    maker: Seat,
    maker_tricks: int,
    *,
    no_trump: bool,
    alone: bool,
    defender_alone: bool,
    choices: list[str],
    score: Mapping[str, int] | None = None,
) -> Explanation:
    """What a result scores (:func:`points_scored`) and for whom, and of each other of
    ``choices`` (``"NS 2"``) why it is wrong; with the ``score`` before the hand, whether
    the hand wins the game."""
    row, value, scorer = points_scored(
        rules, maker, maker_tricks, no_trump=no_trump, alone=alone, defender_alone=defender_alone
    )
    makers = maker.team
    to_makers = scorer is makers
    explanation = _ROW_WORDS[row].format(
        k=f"{maker_tricks} trick" + ("" if maker_tricks == 1 else "s"),
        pts=f"{value} point" + ("" if value == 1 else "s"),
        makers=team_word(makers),
        defenders=team_word(makers.other),
    )
    if alone and row in ("make", "no_trump_make"):
        explanation += " Going alone pays more only for a march; 3 or 4 tricks score as usual."
    if defender_alone and to_makers:
        explanation += " The lone defender failed: the makers score as usual."
    if defender_alone and alone and not to_makers:
        explanation += " A lone defender's euchre counts before a lone maker's."
    if score is not None:
        total = score[str(scorer)] + value
        explanation += f" That brings {team_word(scorer)} to {total} points in a game to "
        explanation += f"{rules.target}" + (
            ", so they win it." if total >= rules.target else "; the game goes on."
        )
    answer = f"{scorer.value} {value}"
    side = "makers" if to_makers else "defenders"
    feedback = {}
    for choice in choices:
        if choice[:2] != scorer.value:
            feedback[choice] = f"Not {team_word(scorer.other)}: the {side} score this hand."
        elif choice != answer:
            feedback[choice] = f"Not {choice[3:]}: this result is worth {value} at this table."
    return Explanation(explanation, feedback)
