"""The course: lessons written as YAML files in ``lessons/content/``, checked by the engine.

Pure Python (no Django): the loader, the validation and the grading of the exercises.
A lesson file is named ``NN-slug.yaml``; ``NN`` gives its place in the course. It holds
a ``title``, a ``summary`` and a list of ``steps``. A step is either an explanation,
``{text: "..."}``, or an exercise: a mapping with a ``kind``, the facts of a concrete
position, and a ``note`` that carries the lesson's point. Exercises never carry an
answer key: :func:`answer_for` works the answer out with the engine, and
:func:`explain` says why.

The kinds and their fields follow ``shared/spec/quiz.md``; ``legal_calls`` and
``farmers_hand`` are two more kinds for the bidding lessons. Each kind's answer and
explanation are the quiz's (``lessons.quiz.tricks``, ``table_rules``, ``house_rules``):
this module reads and checks the YAML, and hands the quiz the position as values.

>>> sorted(answer_for({"kind": "winner", "trump": "H", "trick": [["W", "AD"], ["N", "JD"]]}))
['JD']
>>> sorted(answer_for({"kind": "effective_suit", "trump": "S", "card": "JC"}))
['S']
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import yaml

from games.engine.cards import (
    Card,
    Seat,
    Suit,
    effective_suit,
    parse_card,
    parse_seat,
    parse_suit,
)
from games.engine.errors import CardError, IllegalActionError, RuleError
from games.engine.hand import NT, Call, HandState, Phase, Strain
from games.engine.rules import Rules, format_rules, parse_rules
from games.engine.words import are_trump, call_label, card_name

from .quiz.grading import AnswerError, grade
from .quiz.house_rules import (
    NONE,
    bidding_state,
    call_choices,
    explain_farmers_hand,
    explain_legal_calls,
    farmer_state,
    farmers_cards,
    farmers_pick,
    legal_calls,
)
from .quiz.question import Explanation, Grading
from .quiz.table_rules import explain_lead, explain_points, lead_state, points_scored
from .quiz.tricks import (
    explain_effective_suit,
    explain_legal,
    explain_trick,
    explain_trumps,
    playable,
    trick_winner,
    trumps_in,
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
    "is_right",
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

_FIELDS: dict[str, tuple[set[str], set[str]]] = {
    # kind: (required fields, optional fields), besides kind, note and prompt
    "winner": ({"trump", "trick"}, set()),
    "trumps": ({"trump", "hand"}, set()),
    "legal": ({"trump", "hand", "trick"}, {"seat"}),
    "effective_suit": ({"trump", "card"}, set()),
    "leader": ({"dealer"}, {"rules", "alone", "maker", "defender_alone"}),
    "points": ({"maker", "maker_tricks"}, {"rules", "alone", "defender_alone", "trump", "score"}),
    "legal_calls": ({"dealer", "upcard", "auction"}, {"rules", "score"}),
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
    # The score is shown with every bidding exercise: the start of a game unless given.
    score = _score(raw["score"]) if "score" in raw else {"NS": 0, "EW": 0}
    return {
        "dealer": str(dealer),
        "upcard": str(upcard),
        "auction": [call_label(c) for c in calls],
        "score": score,
    }


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


# -- calls, as the quiz writes them: "pass", "order_up alone", "name H" -----------------------


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


# -- an exercise's position, in the values the quiz's answers and explanations take ---------


def _trump_of(ex: Mapping[str, Any]) -> Suit | None:
    return _trump(_strain(ex["trump"], "trump"))


def _plays(ex: Mapping[str, Any]) -> list[tuple[Seat, Card]]:
    return [(parse_seat(s), parse_card(c)) for s, c in ex["trick"]]


def _hand(ex: Mapping[str, Any]) -> list[Card]:
    return [parse_card(c) for c in ex["hand"]]


def _leader_state(ex: Mapping[str, Any]) -> HandState:
    defender = ex["defender_alone"]
    try:
        state = lead_state(
            parse_rules(ex.get("rules")),
            parse_seat(ex["dealer"]),
            parse_seat(ex["maker"]),
            alone=ex["alone"] is not None,
            defender_alone=None if defender is None else parse_seat(defender),
        )
    except IllegalActionError as error:
        raise ExerciseError("maker", str(error)) from None
    if defender is not None and state.defender_alone is None:
        raise ExerciseError("defender_alone", f"{defender} cannot defend alone here")
    return state


def _points(ex: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments of :func:`~lessons.quiz.table_rules.points_scored`."""
    return {
        "rules": parse_rules(ex.get("rules")),
        "maker": parse_seat(ex["maker"]),
        "maker_tricks": ex["maker_tricks"],
        "no_trump": ex.get("trump") == NT,
        "alone": ex["alone"],
        "defender_alone": ex["defender_alone"] is not None,
    }


def _calls_state(ex: Mapping[str, Any]) -> HandState:
    rules = parse_rules(ex.get("rules"))
    state = bidding_state(rules, parse_seat(ex["dealer"]), parse_card(ex["upcard"]))
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


def _farmer_seat(ex: Mapping[str, Any]) -> tuple[HandState, Seat]:
    rules = parse_rules(ex.get("rules"))
    if rules.farmers_hand == "off":
        raise ExerciseError("rules", "a farmers_hand exercise needs rules with a farmer's hand")
    return farmer_state(rules, parse_card(ex["upcard"]), _hand(ex))


# -- answers: the quiz's, one per kind --------------------------------------------------------


def _answer_leader(ex: Mapping[str, Any]) -> set[str]:
    state = _leader_state(ex)
    return {str(state.current_seat)} if state.current_seat is not None else set()


def _answer_points(ex: Mapping[str, Any]) -> set[str]:
    _, value, team = points_scored(**_points(ex))
    return {f"{team} {value}"}


_ANSWERS: dict[str, Callable[[Mapping[str, Any]], set[str]]] = {
    "winner": lambda ex: {str(trick_winner(_plays(ex), _trump_of(ex)))},
    "trumps": lambda ex: {str(c) for c in trumps_in(_hand(ex), cast(Suit, _trump_of(ex)))},
    "legal": lambda ex: {str(c) for c in playable(_hand(ex), _plays(ex), _trump_of(ex))},
    "effective_suit": lambda ex: {str(effective_suit(parse_card(ex["card"]), _trump_of(ex)))},
    "leader": _answer_leader,
    "points": _answer_points,
    "legal_calls": lambda ex: legal_calls(_calls_state(ex)),
    "farmers_hand": lambda ex: farmers_cards(*_farmer_seat(ex)),
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
    if kind == "winner":
        return f"{are_trump(_strain(ex['trump'], 'trump'))}. Which card wins this trick?"
    if kind == "trumps":
        return f"{are_trump(_strain(ex['trump'], 'trump'))}. Which of these cards are trumps?"
    if kind == "legal":
        who = _seat_word(ex.get("seat")) or "you"
        start = "lead" if not ex["trick"] else "play to this trick"
        return f"{are_trump(_strain(ex['trump'], 'trump'))}. Which cards may {who} {start}?"
    if kind == "effective_suit":
        card = card_name(parse_card(ex["card"]))
        return (
            f"{are_trump(_strain(ex['trump'], 'trump'))}. "
            f"Which suit does the {card.lower()} belong to?"
        )
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
    return (
        "Which three cards of this hand may be shown and swapped for the kitty "
        "(none, if it is not a farmer's hand)?"
    )


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
    return call_choices(_calls_state(ex))


# -- explanations: the quiz's, one per kind ---------------------------------------------------


def _pick(ex: Mapping[str, Any], right: set[str]) -> int | None:
    return farmers_pick(right) if ex["kind"] == "farmers_hand" else None


def is_right(exercise: Mapping[str, Any], given: Iterable[str]) -> bool:
    """Whether ``given`` (the choices picked) answers the exercise: exactly the right
    choices, or, for a farmer's hand of four eligible cards, any three of them."""
    ex = normalise_exercise(exercise)
    right = _ANSWERS[ex["kind"]](ex)
    picked = set(given)
    pick = _pick(ex, right)
    if pick is not None:
        return len(picked) == pick and picked <= right
    return picked == right


def explain(exercise: Mapping[str, Any], answer: str | Iterable[str] | None = None) -> str:
    """Why the right answer is right, from the engine, then the lesson's note.

    ``answer`` is the learner's answer; when it is wrong, the explanation first says why,
    as the quiz's verdict does.
    """
    ex = normalise_exercise(exercise)
    why = _WHY[ex["kind"]](ex)
    text = why.text
    if answer is not None:
        found = _ANSWERS[ex["kind"]](ex)
        right = sorted(found)
        grading = Grading(right, right, why.text, why.feedback, pick=_pick(ex, found))
        multiple = ex["kind"] in MULTIPLE
        given: object = answer if isinstance(answer, str) else list(answer)
        if multiple and isinstance(given, str):
            given = [given]
        # An answer that is none of the choices is told only why the right one is right.
        with contextlib.suppress(AnswerError):
            text = grade(grading, choices_for(ex), multiple, given).explanation
    parts = [text]
    if "note" in ex:
        parts.append(ex["note"])
    return " ".join(p for p in parts if p)


def _why_points(ex: Mapping[str, Any]) -> Explanation:
    return explain_points(**_points(ex), choices=choices_for(ex), score=ex.get("score"))


_WHY: dict[str, Callable[[Mapping[str, Any]], Explanation]] = {
    "winner": lambda ex: explain_trick(_plays(ex), _trump_of(ex)),
    "trumps": lambda ex: explain_trumps(_hand(ex), cast(Suit, _trump_of(ex))),
    "legal": lambda ex: explain_legal(
        _hand(ex), _plays(ex), _trump_of(ex), _optional_seat(ex.get("seat"), "seat")
    ),
    "effective_suit": lambda ex: explain_effective_suit(parse_card(ex["card"]), _trump_of(ex)),
    "leader": lambda ex: explain_lead(_leader_state(ex)),
    "points": _why_points,
    "legal_calls": lambda ex: explain_legal_calls(_calls_state(ex)),
    "farmers_hand": lambda ex: explain_farmers_hand(*_farmer_seat(ex)),
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


_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+\.)\s")


def _paragraphs(value: object) -> str:
    """Text keeps its blank-line paragraphs; lines within a paragraph are joined, except
    that a list item (a line starting ``- `` or ``1. ``) stays a line of its own, each
    item's continued lines joined to it. A list always has a blank line before it, which
    Markdown needs to see a list rather than one run-on paragraph."""
    if not isinstance(value, str) or not value.strip():
        raise ExerciseError("text", "expected some text")
    blocks: list[str] = []
    for paragraph in re.split(r"\n\s*\n", value.strip()):
        prose: list[str] = []
        items: list[str] = []
        for line in paragraph.splitlines():
            if _LIST_ITEM.match(line):
                if prose:
                    blocks.append(" ".join(" ".join(prose).split()))
                    prose = []
                items.append(" ".join(line.split()))
            elif items and not prose:
                items[-1] += " " + " ".join(line.split())
            else:
                prose.append(line)
        if items:
            blocks.append("\n".join(items))
        if prose:
            blocks.append(" ".join(" ".join(prose).split()))
    return "\n\n".join(blocks)


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
