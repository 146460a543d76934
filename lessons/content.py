"""The course: lessons written as YAML files in ``lessons/content/``, checked by the engine.

Pure Python (no Django): the loader, the validation and the grading of the exercises.
A lesson file is named ``NN-slug.yaml``; ``NN`` gives its place in the course. It holds
a ``title``, a ``summary`` and a list of ``steps``. A step is either an explanation,
``{text: "..."}``, or an exercise: a mapping with a ``kind``, the facts of a concrete
position, and a ``note`` that carries the lesson's point. Exercises never carry an
answer key: :func:`answer_for` works the answer out with the engine, and
:func:`explain` says why.

The kinds and their fields follow ``shared/spec/quiz.md``; ``legal_calls`` and
``farmers_hand`` are two more kinds for the bidding lessons.

>>> sorted(answer_for({"kind": "winner", "trump": "H", "trick": [["W", "AD"], ["N", "JD"]]}))
['JD']
>>> sorted(answer_for({"kind": "effective_suit", "trump": "S", "card": "JC"}))
['S']
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import yaml

from games.engine.cards import (
    ALL_CARDS,
    Bower,
    Card,
    Rank,
    Seat,
    Suit,
    Team,
    bower,
    effective_suit,
    parse_card,
    parse_seat,
    parse_suit,
    power,
)
from games.engine.errors import CardError, IllegalActionError, RuleError
from games.engine.hand import (
    NT,
    Action,
    Call,
    Discard,
    FarmerRedeal,
    FarmerSwap,
    HandState,
    Phase,
    Strain,
)
from games.engine.rules import Rules, format_rules, parse_rules
from games.engine.scoring import scoring_row
from games.engine.words import (
    and_list,
    are_trump,
    call_label,
    capital,
    card_name,
    number_word,
    the,
    the_with_role,
)

__all__ = [
    "CONTENT_DIR",
    "KINDS",
    "ContentError",
    "ExerciseError",
    "LessonFile",
    "answer_for",
    "choices_for",
    "explain",
    "load_course",
    "load_lesson",
    "normalise_exercise",
    "prompt_for",
]

CONTENT_DIR = Path(__file__).resolve().parent / "content"
FILE_NAME = re.compile(r"^(\d{2})-([a-z0-9]+(?:-[a-z0-9]+)*)\.yaml$")

KINDS = (
    "winner",
    "trumps",
    "legal",
    "effective_suit",
    "leader",
    "points",
    "legal_calls",
    "farmers_hand",
)
"""The kinds of exercise a lesson may hold."""

MULTIPLE = frozenset({"trumps", "legal", "legal_calls", "farmers_hand"})
"""Kinds whose answer is a set of choices rather than one."""

NONE = "none"
"""The answer of a ``farmers_hand`` exercise whose hand may not be swapped."""

_FIELDS: dict[str, tuple[set[str], set[str]]] = {
    # kind: (required fields, optional fields), besides kind, note and prompt
    "winner": ({"trump", "trick"}, set()),
    "trumps": ({"trump", "hand"}, set()),
    "legal": ({"trump", "hand", "trick"}, {"seat"}),
    "effective_suit": ({"trump", "card"}, set()),
    "leader": ({"dealer"}, {"rules", "alone", "maker", "defender_alone"}),
    "points": ({"maker", "maker_tricks"}, {"rules", "alone", "defender_alone", "trump", "score"}),
    "legal_calls": ({"dealer", "upcard", "auction"}, {"rules"}),
    "farmers_hand": ({"upcard", "hand"}, {"rules"}),
}


class ContentError(ValueError):
    """A lesson file that cannot be used; the message names the file and the step."""


class ExerciseError(ValueError):
    """A bad exercise; ``field`` names the field at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field


# -- reading the fields of an exercise ------------------------------------------------------


def _card(value: object, field: str) -> Card:
    try:
        return parse_card(value)
    except CardError as error:
        raise ExerciseError(field, str(error)) from None


def _seat(value: object, field: str) -> Seat:
    try:
        return parse_seat(value)
    except CardError as error:
        raise ExerciseError(field, str(error)) from None


def _optional_seat(value: object, field: str) -> Seat | None:
    return None if value is None else _seat(value, field)


def _strain(value: object, field: str) -> Strain:
    if isinstance(value, str) and value.strip().upper() == NT:
        return NT
    try:
        return parse_suit(value)
    except CardError as error:
        raise ExerciseError(field, f"{error} or NT") from None


def _trump(strain: Strain) -> Suit | None:
    return None if strain == NT else strain


def _rules(value: object) -> Rules:
    try:
        return parse_rules(value)
    except RuleError as error:
        raise ExerciseError("rules", str(error)) from None


def _cards(value: object, field: str, sizes: range) -> list[Card]:
    if not isinstance(value, list):
        raise ExerciseError(field, f"expected a list of cards, got {value!r}")
    cards = [_card(item, f"{field}[{i}]") for i, item in enumerate(cast(list[object], value))]
    if len(cards) not in sizes:
        wanted = (
            f"{sizes.start}" if len(sizes) == 1 else f"{sizes.start} to {sizes.stop - 1}"
        ) + " cards"
        raise ExerciseError(field, f"a hand of {len(cards)} cards; expected {wanted}")
    _distinct(cards, field)
    return cards


def _distinct(cards: Iterable[Card], field: str) -> None:
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise ExerciseError(field, f"{card} appears twice")
        seen.add(card)


def _trick(value: object, sizes: range) -> list[tuple[Seat, Card]]:
    if not isinstance(value, list):
        raise ExerciseError("trick", f"expected a list of [seat, card] pairs, got {value!r}")
    plays: list[tuple[Seat, Card]] = []
    for i, item in enumerate(cast(list[object], value)):
        if not isinstance(item, list) or len(cast(list[object], item)) != 2:
            raise ExerciseError(f"trick[{i}]", f"expected [seat, card], got {item!r}")
        seat_text, card_text = cast(list[object], item)
        plays.append((_seat(seat_text, f"trick[{i}]"), _card(card_text, f"trick[{i}]")))
    if len(plays) not in sizes:
        raise ExerciseError(
            "trick", f"{len(plays)} cards played; expected {sizes.start} to {sizes.stop - 1}"
        )
    _distinct((card for _, card in plays), "trick")
    if plays:
        leader = plays[0][0]
        places = [(seat.number - leader.number) % 4 for seat, _ in plays]
        if places != sorted(set(places)):
            order = " ".join(str(seat) for seat, _ in plays)
            raise ExerciseError("trick", f"seats {order} do not play in clockwise order")
    return plays


def _flag(value: object, field: str) -> bool:
    if not isinstance(value, bool):
        raise ExerciseError(field, f"expected true or false, got {value!r}")
    return value


def _text(value: object, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ExerciseError(field, "expected some text")
    return " ".join(value.split())


# -- the canonical exercise ---------------------------------------------------------------


def normalise_exercise(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Check an exercise and give it in canonical form (cards like ``JH``, seats ``N``…).

    Raises :class:`ExerciseError` naming the field at fault, including when the engine
    finds no answer for it.
    """
    kind = raw.get("kind")
    if kind not in _FIELDS:
        raise ExerciseError("kind", f"unknown kind {kind!r} (known: {', '.join(KINDS)})")
    required, optional = _FIELDS[kind]
    missing = sorted(required - raw.keys())
    if missing:
        raise ExerciseError(missing[0], f"missing for a {kind} exercise")
    unknown = sorted(raw.keys() - required - optional - {"kind", "note", "prompt"})
    if unknown:
        raise ExerciseError(unknown[0], f"not a field of a {kind} exercise")
    out: dict[str, Any] = {"kind": kind}
    for field in ("note", "prompt"):
        if field in raw:
            out[field] = _text(raw[field], field)
    if "rules" in optional:
        out["rules"] = format_rules(_rules(raw.get("rules")))
    body = _NORMALISERS[kind](raw)
    out.update(body)
    answer = _ANSWERS[kind](out)
    if not answer:
        raise ExerciseError("kind", f"the engine finds no answer for this {kind} exercise")
    return out


def _norm_winner(raw: Mapping[str, Any]) -> dict[str, Any]:
    strain = _strain(raw["trump"], "trump")
    plays = _trick(raw["trick"], range(2, 5))
    return {"trump": str(strain), "trick": [[str(s), str(c)] for s, c in plays]}


def _norm_trumps(raw: Mapping[str, Any]) -> dict[str, Any]:
    strain = _strain(raw["trump"], "trump")
    if strain == NT:
        raise ExerciseError("trump", "a trumps exercise needs a trump suit")
    # Six cards: the dealer's hand after picking up the upcard, before the discard.
    hand = _cards(raw["hand"], "hand", range(5, 7))
    return {"trump": str(strain), "hand": [str(c) for c in hand]}


def _norm_legal(raw: Mapping[str, Any]) -> dict[str, Any]:
    strain = _strain(raw["trump"], "trump")
    hand = _cards(raw["hand"], "hand", range(1, 6))
    plays = _trick(raw["trick"], range(0, 4))
    for i, (_, card) in enumerate(plays):
        if card in hand:
            raise ExerciseError(f"trick[{i}]", f"{card} is also in the hand")
    out: dict[str, Any] = {
        "trump": str(strain),
        "hand": [str(c) for c in hand],
        "trick": [[str(s), str(c)] for s, c in plays],
    }
    if raw.get("seat") is not None:
        seat = _seat(raw["seat"], "seat")
        if any(s is seat for s, _ in plays):
            raise ExerciseError("seat", f"{seat} has already played to this trick")
        out["seat"] = str(seat)
    return out


def _norm_effective_suit(raw: Mapping[str, Any]) -> dict[str, Any]:
    strain = _strain(raw["trump"], "trump")
    return {"trump": str(strain), "card": str(_card(raw["card"], "card"))}


def _norm_leader(raw: Mapping[str, Any]) -> dict[str, Any]:
    dealer = _seat(raw["dealer"], "dealer")
    alone = _optional_seat(raw.get("alone"), "alone")
    maker = _optional_seat(raw.get("maker"), "maker")
    if alone is not None and maker is not None and maker is not alone:
        raise ExerciseError("maker", "the maker is the seat that goes alone")
    defender = _optional_seat(raw.get("defender_alone"), "defender_alone")
    return {
        "dealer": str(dealer),
        "alone": None if alone is None else str(alone),
        "maker": str(alone or maker or dealer.next),
        "defender_alone": None if defender is None else str(defender),
    }


def _norm_points(raw: Mapping[str, Any]) -> dict[str, Any]:
    rules = _rules(raw.get("rules"))
    maker = _seat(raw["maker"], "maker")
    tricks = raw["maker_tricks"]
    if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 <= tricks <= 5:
        raise ExerciseError("maker_tricks", f"expected 0 to 5 tricks, got {tricks!r}")
    alone = _flag(raw.get("alone", False), "alone")
    defender = _optional_seat(raw.get("defender_alone"), "defender_alone")
    if defender is not None:
        if defender.team is maker.team:
            raise ExerciseError("defender_alone", f"{defender} is on the makers' side")
        if not rules.defend_alone:
            raise ExerciseError("defender_alone", "these rules do not allow defending alone")
    strain = _strain(raw["trump"], "trump") if raw.get("trump") is not None else None
    if strain == NT and not rules.no_trump:
        raise ExerciseError("trump", "no-trump needs rules that allow it")
    out: dict[str, Any] = {
        "maker": str(maker),
        "alone": alone,
        "defender_alone": None if defender is None else str(defender),
        "maker_tricks": tricks,
    }
    if strain is not None:
        out["trump"] = str(strain)
    if raw.get("score") is not None:
        out["score"] = _score(raw["score"])
    return out


def _score(value: object) -> dict[str, int]:
    if not isinstance(value, dict) or set(cast(dict[str, object], value)) != {"NS", "EW"}:
        raise ExerciseError("score", f"expected {{NS: points, EW: points}}, got {value!r}")
    score: dict[str, int] = {}
    for team in ("NS", "EW"):
        points = cast(dict[str, object], value)[team]
        if isinstance(points, bool) or not isinstance(points, int) or points < 0:
            raise ExerciseError(f"score.{team}", f"expected a number of points, got {points!r}")
        score[team] = points
    return score


def _norm_legal_calls(raw: Mapping[str, Any]) -> dict[str, Any]:
    dealer = _seat(raw["dealer"], "dealer")
    upcard = _card(raw["upcard"], "upcard")
    auction = raw["auction"]
    if not isinstance(auction, list):
        raise ExerciseError("auction", f"expected a list of calls, got {auction!r}")
    calls = [_call(item, f"auction[{i}]") for i, item in enumerate(cast(list[object], auction))]
    return {"dealer": str(dealer), "upcard": str(upcard), "auction": [call_label(c) for c in calls]}


def _norm_farmers_hand(raw: Mapping[str, Any]) -> dict[str, Any]:
    upcard = _card(raw["upcard"], "upcard")
    hand = _cards(raw["hand"], "hand", range(5, 6))
    if upcard in hand:
        raise ExerciseError("upcard", f"{upcard} is also in the hand")
    return {"upcard": str(upcard), "hand": [str(c) for c in hand]}


_NORMALISERS = {
    "winner": _norm_winner,
    "trumps": _norm_trumps,
    "legal": _norm_legal,
    "effective_suit": _norm_effective_suit,
    "leader": _norm_leader,
    "points": _norm_points,
    "legal_calls": _norm_legal_calls,
    "farmers_hand": _norm_farmers_hand,
}


def _call(value: object, field: str) -> Call:
    words = value.split() if isinstance(value, str) else []
    alone = bool(words) and words[-1] == "alone"
    if alone:
        words = words[:-1]
    if words == ["pass"] and not alone:
        return Call("pass")
    if words == ["order_up"]:
        return Call("order_up", None, alone)
    if len(words) == 2 and words[0] == "name":
        return Call("name", _strain(words[1], field), alone)
    raise ExerciseError(
        field, f"expected a call such as 'pass', 'order_up', 'name H alone'; got {value!r}"
    )


# -- positions built for the engine ---------------------------------------------------------


def _state(
    rules: Rules,
    dealer: Seat,
    upcard: Card | None = None,
    fixed: Mapping[Seat, list[Card]] | None = None,
) -> HandState:
    """A deal in which ``fixed`` seats hold the given cards; the rest is filled in order."""
    fixed = fixed or {}
    used = {c for cards in fixed.values() for c in cards}
    spare = [c for c in ALL_CARDS if c not in used and c != upcard]
    if upcard is None:
        upcard = spare.pop()
    hands: dict[Seat, list[Card | None]] = {}
    for seat in Seat:
        if seat in fixed:
            hands[seat] = list(fixed[seat])
        else:
            hands[seat], spare = list(spare[:5]), spare[5:]
    return HandState(rules, dealer, hands, upcard, list(spare[:3]))


def _skip_farmers(state: HandState) -> None:
    while state.phase is Phase.FARMER:
        state.apply(Call("pass"))


def _leader_state(exercise: Mapping[str, Any]) -> HandState:
    rules = parse_rules(exercise.get("rules"))
    dealer = parse_seat(exercise["dealer"])
    maker = parse_seat(exercise["maker"])
    alone = exercise["alone"] is not None
    defender = exercise["defender_alone"]
    state = _state(rules, dealer)
    _skip_farmers(state)
    try:
        while state.current_seat is not maker:
            state.apply(Call("pass"))
        state.apply(Call("order_up", None, alone))
        while state.phase is Phase.DEFEND:
            seat = state.current_seat
            defends = defender is not None and seat is parse_seat(defender)
            state.apply(Call("defend_alone") if defends else Call("pass"))
        if defender is not None and state.defender_alone is None:
            raise ExerciseError("defender_alone", f"{defender} cannot defend alone here")
        if state.phase is Phase.DISCARD:
            state.apply(Discard(cast(Card, state.hands[dealer][0])))
    except IllegalActionError as error:
        raise ExerciseError("maker", str(error)) from None
    return state


# -- answers ------------------------------------------------------------------------------


def _answer_winner(ex: Mapping[str, Any]) -> set[str]:
    trump = _trump(_strain(ex["trump"], "trump"))
    plays = [(parse_seat(s), parse_card(c)) for s, c in ex["trick"]]
    led = effective_suit(plays[0][1], trump)
    return {str(max(plays, key=lambda sc: power(sc[1], trump, led))[1])}


def _answer_trumps(ex: Mapping[str, Any]) -> set[str]:
    trump = _trump(_strain(ex["trump"], "trump"))
    return {c for c in ex["hand"] if effective_suit(parse_card(c), trump) is trump}


def _answer_legal(ex: Mapping[str, Any]) -> set[str]:
    trump = _trump(_strain(ex["trump"], "trump"))
    hand = [parse_card(c) for c in ex["hand"]]
    if not ex["trick"]:
        return {str(c) for c in hand}
    led = effective_suit(parse_card(ex["trick"][0][1]), trump)
    following = [c for c in hand if effective_suit(c, trump) is led]
    return {str(c) for c in following or hand}


def _answer_effective_suit(ex: Mapping[str, Any]) -> set[str]:
    trump = _trump(_strain(ex["trump"], "trump"))
    return {str(effective_suit(parse_card(ex["card"]), trump))}


def _answer_leader(ex: Mapping[str, Any]) -> set[str]:
    state = _leader_state(ex)
    return {str(state.current_seat)} if state.current_seat is not None else set()


def _points(ex: Mapping[str, Any]) -> tuple[str, int, Team]:
    rules = parse_rules(ex.get("rules"))
    row, value, to_makers = scoring_row(
        rules,
        no_trump=ex.get("trump") == NT,
        alone=ex["alone"],
        defender_alone=ex["defender_alone"] is not None,
        maker_tricks=ex["maker_tricks"],
    )
    makers = parse_seat(ex["maker"]).team
    return row, value, makers if to_makers else makers.other


def _answer_points(ex: Mapping[str, Any]) -> set[str]:
    _, value, team = _points(ex)
    return {f"{team} {value}"}


def _calls_state(ex: Mapping[str, Any]) -> HandState:
    rules = parse_rules(ex.get("rules"))
    state = _state(rules, parse_seat(ex["dealer"]), parse_card(ex["upcard"]))
    _skip_farmers(state)
    for i, text in enumerate(ex["auction"]):
        if state.phase is not Phase.AUCTION:
            raise ExerciseError(f"auction[{i}]", "the auction is already over")
        try:
            state.apply(_call(text, f"auction[{i}]"))
        except IllegalActionError as error:
            raise ExerciseError(f"auction[{i}]", str(error)) from None
    if state.phase is not Phase.AUCTION:
        raise ExerciseError("auction", "the auction is over: no one has a call to make")
    return state


def _answer_legal_calls(ex: Mapping[str, Any]) -> set[str]:
    state = _calls_state(ex)
    return {call_label(a) for a in state.legal_actions() if isinstance(a, Call)}


def _farmer_seat(ex: Mapping[str, Any]) -> tuple[HandState, Seat]:
    rules = parse_rules(ex.get("rules"))
    if rules.farmers_hand == "off":
        raise ExerciseError("rules", "a farmers_hand exercise needs rules with a farmer's hand")
    seat = Seat.S
    dealer = seat.next.next.next  # the seat asked first
    hand = [parse_card(c) for c in ex["hand"]]
    return _state(rules, dealer, parse_card(ex["upcard"]), {seat: hand}), seat


def _answer_farmers_hand(ex: Mapping[str, Any]) -> set[str]:
    state, seat = _farmer_seat(ex)
    if state.phase is not Phase.FARMER or state.current_seat is not seat:
        return {NONE}
    options: list[Action] = state.legal_actions()
    cards = {str(c) for a in options if isinstance(a, FarmerSwap) for c in a.cards}
    if any(isinstance(a, FarmerRedeal) for a in options):
        held = {str(c) for c in state.hands[seat] if c is not None}
        eligible = {c for c in held if parse_card(c).rank in (Rank.NINE, Rank.TEN)}
        cards |= {c for c in eligible if _eligible(state, parse_card(c))}
    return cards or {NONE}


def _eligible(state: HandState, card: Card) -> bool:
    rules = state.rules
    ranks = (Rank.NINE,) if rules.farmers_hand == "clean" else (Rank.NINE, Rank.TEN)
    return card.rank in ranks and not (
        rules.farmers_turn_card_rule and card.suit is state.upcard.suit
    )


_ANSWERS = {
    "winner": _answer_winner,
    "trumps": _answer_trumps,
    "legal": _answer_legal,
    "effective_suit": _answer_effective_suit,
    "leader": _answer_leader,
    "points": _answer_points,
    "legal_calls": _answer_legal_calls,
    "farmers_hand": _answer_farmers_hand,
}


def answer_for(exercise: Mapping[str, Any]) -> set[str]:
    """The right answer, worked out by the engine: cards, a suit, a seat, ``"NS 2"``, calls."""
    ex = normalise_exercise(exercise)
    return _ANSWERS[ex["kind"]](ex)


# -- prompts and choices --------------------------------------------------------------------


def _seat_word(seat: str | None) -> str:
    return "" if seat is None else parse_seat(seat).word


def prompt_for(exercise: Mapping[str, Any]) -> str:
    """The question, in words: the file's ``prompt`` if it has one, else a standard one."""
    ex = normalise_exercise(exercise)
    if "prompt" in ex:
        return str(ex["prompt"])
    kind = ex["kind"]
    trump = are_trump(_strain(ex["trump"], "trump")) if "trump" in ex else ""
    if kind == "winner":
        return f"{trump}. Which card wins this trick?"
    if kind == "trumps":
        return f"{trump}. Which of these cards are trumps?"
    if kind == "legal":
        who = _seat_word(ex.get("seat")) or "you"
        start = "lead" if not ex["trick"] else "play to this trick"
        return f"{trump}. Which cards may {who} {start}?"
    if kind == "effective_suit":
        return f"{trump}. Which suit does {the(parse_card(ex['card']))} belong to?"
    if kind == "leader":
        text = f"{_seat_word(ex['dealer'])} deals"
        if ex["alone"]:
            text += f" and {_seat_word(ex['alone'])} makes trump alone"
        else:
            text += f" and {_seat_word(ex['maker'])} makes trump"
        if ex["defender_alone"]:
            text += f"; {_seat_word(ex['defender_alone'])} defends alone"
        return text + ". Who leads the first trick?"
    if kind == "points":
        maker = _seat_word(ex["maker"])
        how = " alone" if ex["alone"] else ""
        text = f"{maker} made trump{how}"
        if ex.get("trump") == NT:
            text = f"{maker} named no-trump{how}"
        if ex["defender_alone"]:
            text += f", {_seat_word(ex['defender_alone'])} defended alone"
        tricks = ex["maker_tricks"]
        text += f", and the makers took {tricks} trick{'s' if tricks != 1 else ''}."
        return text + " Who scores, and how many points?"
    if kind == "legal_calls":
        state = _calls_state(ex)
        seat = _seat_word(str(state.current_seat))
        return f"It is {seat}'s turn to bid. Which calls may {seat} make?"
    assert kind == "farmers_hand"
    return "Which cards of this hand may be shown and swapped for the kitty?"


def choices_for(exercise: Mapping[str, Any]) -> list[str]:
    """What the learner chooses from, as in the quiz API."""
    ex = normalise_exercise(exercise)
    kind = ex["kind"]
    if kind == "winner":
        return [card for _, card in ex["trick"]]
    if kind in ("trumps", "legal"):
        return list(ex["hand"])
    if kind == "farmers_hand":
        return [*ex["hand"], NONE]
    if kind == "effective_suit":
        return [s.value for s in Suit]
    if kind == "leader":
        return [s.value for s in Seat]
    if kind == "points":
        points = parse_rules(ex.get("rules")).points
        values = sorted({v for v in vars(points).values() if v > 0})
        return [f"{team} {v}" for team in ("NS", "EW") for v in values]
    # Besides the legal calls, those a learner might wrongly think allowed: passing,
    # ordering up, and naming any suit.
    state = _calls_state(ex)
    offered = {call_label(a) for a in state.legal_actions() if isinstance(a, Call)}
    offered |= {"pass", "order_up", "order_up alone"} | {f"name {s.value}" for s in Suit}
    return [call for call in _CALL_ORDER if call in offered]


_CALL_ORDER = [
    "pass",
    "order_up",
    "order_up alone",
    *(f"name {strain}{alone}" for strain in ("S", "H", "D", "C", NT) for alone in ("", " alone")),
]


# -- explanations ---------------------------------------------------------------------------


def _given(answer: str | Iterable[str] | None) -> set[str]:
    """The learner's answer as a set; cards are read leniently (``jd``, ``J♦``)."""
    if answer is None:
        return set()
    items = [answer] if isinstance(answer, str) else list(answer)
    out: set[str] = set()
    for item in items:
        try:
            out.add(str(parse_card(item)))
        except CardError:
            out.add(item.strip())
    return out


def explain(exercise: Mapping[str, Any], answer: str | Iterable[str] | None = None) -> str:
    """Why the right answer is right, from the engine, then the lesson's note.

    ``answer`` is the learner's answer; when it is wrong, the explanation says why too.
    """
    ex = normalise_exercise(exercise)
    right = _ANSWERS[ex["kind"]](ex)
    given = _given(answer)
    parts = [_WHY[ex["kind"]](ex, right, given)]
    if "note" in ex:
        parts.append(ex["note"])
    return " ".join(p for p in parts if p)


def _why_winner(ex: Mapping[str, Any], right: set[str], given: set[str]) -> str:
    trump = _trump(_strain(ex["trump"], "trump"))
    plays = [(parse_seat(s), parse_card(c)) for s, c in ex["trick"]]
    led = effective_suit(plays[0][1], trump)
    winner = parse_card(next(iter(right)))
    trumps = [c for _, c in plays if trump is not None and effective_suit(c, trump) is trump]
    lead = the_with_role(plays[0][1], trump)
    text = f"The lead, {lead}, makes {led.plural} the suit to follow."
    if trump is not None and plays[0][1].suit is not led:
        text = f"The lead, {lead}, is a {trump.plural[:-1]}, so trump was led."
    if trumps:
        if len(trumps) == 1:
            text += f" Only one trump was played, {the_with_role(winner, trump)}, and it wins."
        else:
            text += f" The best trump on the table takes it: {the_with_role(winner, trump)}."
    else:
        text += (
            f" Nobody played a trump, so the best {led.plural[:-1]} takes it: "
            f"{the_with_role(winner, trump)}."
        )
    for text_card in sorted(given - right):
        try:
            card = parse_card(text_card)
        except CardError:
            continue
        if card not in [c for _, c in plays]:
            continue
        suit = effective_suit(card, trump)
        if suit is trump:
            reason = "is a trump, but a lower one"
        elif suit is led:
            reason = f"follows {led.plural}, but is beaten"
        elif bower(card, trump) is Bower.LEFT:
            reason = "is a trump"
        else:
            reason = f"is neither {led.plural} nor trump, so it cannot win"
        text += f" {capital(the_with_role(card, trump))} {reason}."
    return text


def _why_trumps(ex: Mapping[str, Any], right: set[str], given: set[str]) -> str:
    trump = cast(Suit, _trump(_strain(ex["trump"], "trump")))
    cards = [parse_card(c) for c in ex["hand"] if c in right]
    names = [the_with_role(c, trump) for c in cards]
    count = len(cards)
    text = (
        f"With {trump.plural} trump this hand holds {number_word(count)} trump"
        f"{'s' if count != 1 else ''}: {and_list(names)}."
    )
    left = [c for c in cards if c.suit is trump.same_colour]
    if left:
        text += (
            f" The jack of {trump.same_colour.plural} is a {trump.plural[:-1]} for the whole "
            "hand, whatever suit is printed on it."
        )
    for text_card in sorted(given - right):
        if text_card in ex["hand"]:
            card = parse_card(text_card)
            text += (
                f" {capital(the_with_role(card, trump))} is a {card.suit.plural[:-1]}, not a trump."
            )
    fakes = [
        parse_card(c)
        for c in ex["hand"]
        if c not in right and c not in given and parse_card(c).suit is trump.same_colour
    ]
    if fakes:
        text += (
            f" {and_list([the_with_role(c, trump) for c in fakes]).capitalize()} "
            f"{'stays a' if len(fakes) == 1 else 'stay'} {trump.same_colour.plural[:-1]}"
            f"{'' if len(fakes) == 1 else 's'}: only the jack changes suit."
        )
    return text


def _why_legal(ex: Mapping[str, Any], right: set[str], given: set[str]) -> str:
    trump = _trump(_strain(ex["trump"], "trump"))
    hand = [parse_card(c) for c in ex["hand"]]
    if not ex["trick"]:
        return "Whoever leads may lead any card."
    first = parse_card(ex["trick"][0][1])
    led = effective_suit(first, trump)
    text = f"{capital(the_with_role(first, trump))} was led"
    text += f", so the suit to follow is {led.plural}."
    following = [c for c in hand if effective_suit(c, trump) is led]
    if following:
        count = len(following)
        text += (
            f" This hand holds {number_word(count)} {led.plural[:-1]}{'s' if count != 1 else ''}"
            f", {and_list([the_with_role(c, trump) for c in following])}, "
            f"and must play {'it' if count == 1 else 'one of them'}."
        )
        for text_card in sorted(given - right):
            try:
                card = parse_card(text_card)
            except CardError:
                continue
            if card in hand:
                text += f" {capital(the_with_role(card, trump))} does not follow {led.plural}."
    else:
        text += f" This hand has no {led.plural}, so any card may be played."
    if trump is not None:
        lookalikes = [c for c in hand if c.suit is led and effective_suit(c, trump) is not led]
        for card in lookalikes:
            text += (
                f" The {card_name(card).lower()} is the left bower, a {trump.plural[:-1]}: "
                f"it does not follow {led.plural}."
            )
    return text


def _why_effective_suit(ex: Mapping[str, Any], right: set[str], given: set[str]) -> str:
    trump = _trump(_strain(ex["trump"], "trump"))
    card = parse_card(ex["card"])
    suit = parse_suit(next(iter(right)))
    if trump is None:
        return (
            f"In no-trump there are no bowers: {the_with_role(card, None)} is a {suit.plural[:-1]}."
        )
    if bower(card, trump) is Bower.LEFT:
        return (
            f"{capital(the_with_role(card, trump))} shares trump's colour: while "
            f"{trump.plural} are trump it is a "
            f"{trump.plural[:-1]}, second only to the jack of {trump.plural}."
        )
    if bower(card, trump) is Bower.RIGHT:
        return f"The jack of {trump.plural} is the right bower, the highest trump."
    return (
        f"Only the two jacks of trump's colour are special; {the_with_role(card, trump)} "
        f"keeps its printed suit, {suit.plural}."
    )


def _why_leader(ex: Mapping[str, Any], right: set[str], given: set[str]) -> str:
    state = _leader_state(ex)
    rules = state.rules
    dealer = parse_seat(ex["dealer"])
    leader = parse_seat(next(iter(right)))
    start = dealer.next
    text = f"The player on the dealer's left, {start.word}, leads the first trick"
    if state.alone and rules.lone_lead == "left_of_maker" and state.maker is not None:
        start = state.maker.next
        text = (
            f"At this table a lone hand is led by the player on the lone maker's left, {start.word}"
        )
    skipped = []
    seat = start
    while state.sits_out(seat):
        skipped.append(seat)
        seat = seat.next
    if skipped:
        text += (
            f", but {and_list([s.word for s in skipped])} sits out this hand, so the lead passes "
            f"on to {leader.word}."
        )
    else:
        text += "."
    return text


_ROW_WORDS = {
    "make": "the makers took three or four tricks",
    "march": "the makers took every trick (a march)",
    "lone_march": "a lone maker took all five tricks",
    "euchre": "the makers took fewer than three tricks: they are euchred",
    "lone_maker_euchred": "a lone maker was euchred",
    "lone_defender_euchre": "a lone defender held the makers under three tricks",
    "no_trump_make": "the makers of a no-trump hand took three or four tricks",
}


def _why_points(ex: Mapping[str, Any], right: set[str], given: set[str]) -> str:
    row, value, team = _points(ex)
    side = "makers" if parse_seat(ex["maker"]).team is team else "defenders"
    text = (
        f"{_ROW_WORDS[row][0].upper()}{_ROW_WORDS[row][1:]}, "
        f"so the {side} ({team}) score {value} point{'s' if value != 1 else ''}."
    )
    if row == "make" and ex["alone"]:
        text += " Going alone pays extra only for all five tricks."
    score = ex.get("score")
    if score is not None:
        target = parse_rules(ex.get("rules")).target
        total = score[str(team)] + value
        text += f" That brings {team} to {total} points in a game to {target}"
        text += ", so they win it." if total >= target else "; the game goes on."
    return text


def _why_legal_calls(ex: Mapping[str, Any], right: set[str], given: set[str]) -> str:
    state = _calls_state(ex)
    seat = cast(Seat, state.current_seat)
    rules = state.rules
    upcard = state.upcard
    if state.round == 1:
        text = (
            f"In the first round the only suit on offer is the upcard's, {upcard.suit.plural}: "
            f"{seat.word} may pass, or order it up"
        )
        if rules.canadian_loner and seat is state.dealer.partner:
            text += (
                " but only by going alone, because at this table the dealer's partner "
                "may not order up otherwise"
            )
        text += "."
        if seat is state.dealer:
            text += " As dealer, ordering up means picking the upcard up yourself."
        return text
    text = (
        f"The upcard was turned down, so {upcard.suit.plural} cannot be trump this hand; "
        f"{seat.word} may name one of the other suits"
    )
    if rules.no_trump:
        text += " or no-trump"
    if state.stuck:
        text += ". Everyone else has passed twice and the dealer is stuck: passing is not allowed."
    elif seat is state.dealer and not rules.stick_the_dealer:
        text += ", or pass: if the dealer passes too, the cards are thrown in and redealt."
    else:
        text += ", or pass."
    return text


def _why_farmers_hand(ex: Mapping[str, Any], right: set[str], given: set[str]) -> str:
    state, _ = _farmer_seat(ex)
    rules = state.rules
    wanted = "three 9s" if rules.farmers_hand == "clean" else "three cards, each a 9 or a 10"
    text = f"At this table a farmer's hand is {wanted}"
    if rules.farmers_turn_card_rule:
        text += f", none of them of the upcard's suit ({state.upcard.suit.plural})"
    text += "."
    if right == {NONE}:
        return text + " This hand does not have them, so it must be played as dealt."
    cards = sorted(right, key=lambda c: parse_card(c).index)
    text += f" This hand may show {and_list(cards)}"
    if len(cards) > 3:
        text += ", any three of them"
    return text + "."


_WHY = {
    "winner": _why_winner,
    "trumps": _why_trumps,
    "legal": _why_legal,
    "effective_suit": _why_effective_suit,
    "leader": _why_leader,
    "points": _why_points,
    "legal_calls": _why_legal_calls,
    "farmers_hand": _why_farmers_hand,
}


# -- lesson files ---------------------------------------------------------------------------


@dataclass(frozen=True)
class LessonFile:
    """One lesson as read from its file, every exercise checked and answered."""

    slug: str
    order: int
    title: str
    summary: str
    steps: list[dict[str, Any]]
    source_hash: str
    path: Path

    def content(self) -> dict[str, Any]:
        """What the database keeps: the steps, each exercise with its prompt,
        choices and engine-computed answer."""
        return {"steps": self.steps}


def load_lesson(path: Path) -> LessonFile:
    """Read and check one lesson file; any fault raises :class:`ContentError`."""
    name = path.name
    match = FILE_NAME.match(name)
    if match is None:
        raise ContentError(f"{name}: a lesson file is named NN-slug.yaml")
    raw_bytes = path.read_bytes()
    try:
        data = yaml.safe_load(raw_bytes)
    except yaml.YAMLError as error:
        raise ContentError(f"{name}: not valid YAML: {error}") from None
    if not isinstance(data, dict):
        raise ContentError(f"{name}: expected a mapping with title, summary and steps")
    doc = cast(dict[str, Any], data)
    unknown = sorted(doc.keys() - {"title", "summary", "steps"})
    if unknown:
        raise ContentError(f"{name}: unknown field {unknown[0]!r}")
    try:
        title = _text(doc.get("title"), "title")
        summary = _text(doc.get("summary"), "summary")
    except ExerciseError as error:
        raise ContentError(f"{name}: {error}") from None
    raw_steps = doc.get("steps")
    if not isinstance(raw_steps, list) or not raw_steps:
        raise ContentError(f"{name}: steps: expected a list of steps")
    steps = [_step(name, i, item) for i, item in enumerate(cast(list[object], raw_steps), 1)]
    return LessonFile(
        slug=match.group(2),
        order=int(match.group(1)),
        title=title,
        summary=summary,
        steps=steps,
        source_hash=hashlib.sha256(raw_bytes).hexdigest(),
        path=path,
    )


def _step(name: str, number: int, item: object) -> dict[str, Any]:
    where = f"{name}: step {number}"
    if not isinstance(item, dict):
        raise ContentError(f"{where}: expected {{text: ...}} or an exercise with a kind")
    raw = cast(dict[str, Any], item)
    if "kind" not in raw:
        if set(raw) != {"text"}:
            raise ContentError(f"{where}: an explanation step has only 'text'")
        try:
            return {"type": "text", "text": _paragraphs(raw["text"])}
        except ExerciseError as error:
            raise ContentError(f"{where}: {error}") from None
    try:
        exercise = normalise_exercise(raw)
        if "note" not in exercise:
            raise ExerciseError("note", "every exercise needs a teaching note")
        answer = sorted(_ANSWERS[exercise["kind"]](exercise))
        return {
            "type": "exercise",
            "exercise": exercise,
            "prompt": prompt_for(exercise),
            "choices": choices_for(exercise),
            "multiple": exercise["kind"] in MULTIPLE,
            "answer": answer,
            "explanation": explain(exercise),
        }
    except ExerciseError as error:
        raise ContentError(f"{where} ({raw.get('kind')}): {error}") from None
    except (CardError, RuleError, IllegalActionError) as error:
        raise ContentError(f"{where} ({raw.get('kind')}): {error}") from None


def _paragraphs(value: object) -> str:
    """Text keeps its blank-line paragraphs; lines within a paragraph are joined."""
    if not isinstance(value, str) or not value.strip():
        raise ExerciseError("text", "expected some text")
    paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", value.strip())]
    return "\n\n".join(paragraphs)


def load_course(directory: Path = CONTENT_DIR) -> list[LessonFile]:
    """Every lesson of ``directory`` in course order; the numbers and slugs must be unique."""
    lessons = [load_lesson(p) for p in sorted(directory.glob("*.yaml"))]
    seen: dict[int, str] = {}
    for lesson in lessons:
        if lesson.order in seen:
            raise ContentError(
                f"{lesson.path.name}: number {lesson.order:02d} is also used by "
                f"{seen[lesson.order]}"
            )
        seen[lesson.order] = lesson.path.name
    slugs = [lesson.slug for lesson in lessons]
    for slug in slugs:
        if slugs.count(slug) > 1:
            raise ContentError(f"{slug}: two lesson files share this slug")
    return lessons
