"""The text notation for hand records: what a person types, reads, and pastes into an email.

A hand in the notation is the same record as the JSON of ``shared/spec/hand-record.md``
(``euchre-hand/1``), written the way PGN writes a chess game: the facts of the deal as
tag pairs, then the auction one bidding round per line, then the play one trick per line.

Example: a complete hand. North orders up diamonds alone, so South sits out and every
trick has three cards; nobody recorded South's cards or what the dealer threw away. (The
rules let a defender go alone too; declining to is not written.)::

    [Rules "defend-alone"]
    [Target "5"]
    [Dealer "E"]
    [North "AS TS 9S AD QC"]
    [East "KS JS AC 9C ??"]
    [South "?? ?? ?? ?? ??"]
    [West "AH JH 9H JC TC"]
    [Upcard "QD"]
    [Discard "??"]

    S pass  W pass  N order-up alone

    W: JC QC 9C
    N: 9S JS 9H
    E: AC TC AD
    N: AS KS AH
    N: TS QD JH

Tags
----

One tag per line, ``[Name "value"]``. Inside the quotes ``\\"`` is a quote and ``\\\\`` a
backslash, ``\\n`` a line break. Tag names are read in any case, with or without ``_`` or
``-`` (``[stick_the_dealer "no"]`` is ``[StickTheDealer "no"]``); quotes may be left off a
value that needs none (``[Dealer W]``). Every tag comes before the auction and the play.

=========================  ==================================================================
``[Rules "redeal"]``       the preset the rules start from (default ``standard``); also
                           accepted: the JSON ``rules`` object, ``[Rules "{\\"target\\": 5}"]``
``[Target "5"]`` …         one tag for each rule option that differs from that preset, named
                           after the option: ``Target``, ``StickTheDealer``, ``DefendAlone``,
                           ``CanadianLoner``, ``SittingOutDealerPicksUp``, ``NoTrump``,
                           ``FarmersHand`` (``off``/``clean``/``mixed``),
                           ``FarmersTurnCardRule``, ``FarmersRedeal``, ``LoneLead``
                           (``left-of-dealer``/``left-of-maker``); yes/no options read
                           ``yes no true false on off``
``[Points "march 3"]``     the points that differ from the preset's: ``make``, ``march``,
                           ``lone-march``, ``euchre``, ``lone-maker-euchred``,
                           ``lone-defender-euchre``, ``no-trump-make``, comma separated
``[Dealer "W"]``           the dealer (required)
``[North "JH AH …"]``      the five cards dealt to each seat, ``??`` for an unknown card;
                           also ``[East]``, ``[South]``, ``[West]`` (all four required)
``[Upcard "TC"]``          the card turned up (required)
``[Kitty "QC JS TD"]``     the three face-down cards (optional; written whenever known)
``[Farmer "E 9S 9H 9D"]``  a farmer's hand swapped for the kitty; ``[Farmer "E redeal"]``
                           where the rules redeal instead (optional)
``[Discard "9D"]``         the dealer's discard after picking up, ``??`` if unknown (optional)
``[Title "…"]``            free text carried into the record: ``Title``, ``Event``, ``Date``,
                           ``Source``, ``Comment``, ``Notes`` (optional)
``[Hand "2"]``             begins a hand in a text of several hands; its value is a label
=========================  ==================================================================

Cards are written as in the record (``JH``, ``TD``, ``9S``) and read tolerantly: ``10H``,
``jh``, ``J♥``. Hands and the kitty may separate cards with spaces or commas.

The auction
-----------

Each call is its seat followed by the call: ``pass``, ``order-up`` (the first round,
the dealer's "pick it up" too), a suit ``S H D C`` or ``NT`` (named in the second round;
``NT`` where the rules allow no-trump),
``defend-alone``; ``alone`` after an ``order-up`` or a suit makes it a lone call. Canonical
text puts one bidding round per line, a ``defend-alone`` on the line of the call it answers;
any layout is read. Also read: ``p``, ``order``, ``pick-up``, ``name H``, ``hearts``, ``♥``,
``defend alone``, seats written out (``North``).

The play
--------

One trick per line: the seat that leads it, a colon, then the cards in the order played.
Seats that sit out a lone hand are simply absent, so their tricks have three cards (two
when a lone maker meets a lone defender). The last trick of an unfinished hand may be
short. The leader must be the seat that leads by the rules (the replay decides): a trick
line led by anyone else is an error.

Layout
------

Comments run from ``;`` or ``#`` to the end of the line; blank lines are ignored; spaces,
case, ``10`` for ``T`` and suit symbols are all forgiven. The formatter writes canonical
text: the free-text tags, ``Rules`` and the option tags, ``Dealer``, the four hands (sorted
as the canonical record sorts them), ``Upcard``, ``Kitty``, ``Farmer``, ``Discard``; a
blank line; the auction; a blank line; the play.

In a text of several hands (:func:`parse_notation_many`, :func:`format_notation_many`) a
hand begins at a ``[Hand]`` tag or at a tag that follows the auction or play of the hand
before; the formatter opens each hand with ``[Hand "1"]``, ``[Hand "2"]``….

Errors in the notation itself are :class:`NotationError` and name the line
(``line 7: unknown tag 'Dealr' (did you mean [Dealer]?)``). Whether the hand is legal
(a card twice, a renege, a call out of turn) is :func:`~games.engine.record.parse_record`'s
to say, with its own message naming the record's field.

>>> text = '''
... [Dealer "W"]
... [North "JH AH 9C KD TS"]   ; cards in any order
... [East "QH 9H AC KC QS"]
... [South "JD 10♥ AS 9D JC"]
... [West "KH QD AD KS 9S"]
... [Upcard "TC"]
...
... N pass  E pass  S pass  W pass
... N H
...
... N: JH QH JD KH
... N: AH 9H TH QD
... '''
>>> record = parse_notation(text)
>>> record["auction"][-1], record["play"][:4]
({'seat': 'N', 'call': 'name', 'suit': 'H', 'alone': False}, ['JH', 'QH', 'JD', 'KH'])
>>> print(format_notation(record))
[Rules "standard"]
[Dealer "W"]
[North "TS AH JH KD 9C"]
[East "QS QH 9H AC KC"]
[South "AS TH JD 9D JC"]
[West "KS 9S KH AD QD"]
[Upcard "TC"]
[Kitty "JS TD QC"]
<BLANKLINE>
N pass  E pass  S pass  W pass
N H
<BLANKLINE>
N: JH QH JD KH
N: AH 9H TH QD
<BLANKLINE>
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from typing import Any, cast, get_args, get_type_hints

from .cards import (
    UNKNOWN,
    Seat,
    format_card,
    parse_card,
    parse_card_or_unknown,
    parse_seat,
    parse_suit,
)
from .errors import CardError, NotationError, RecordError, RuleError, shown
from .hand import Call, HandState, Phase
from .jsontext import loads as json_loads
from .record import FORMAT, HandRecord, parse_record, played_at
from .rules import PRESETS, Points, Rules, format_rules, parse_rules

__all__ = [
    "format_notation",
    "format_notation_many",
    "parse_notation",
    "parse_notation_many",
]


def _line(number: int | None) -> str:
    """Where a problem of the text is: ``line 7`` (lines count from 1), ``""`` for the whole."""
    return "" if number is None else f"line {number}"


# -- the vocabulary ------------------------------------------------------------------------

_METADATA_TAGS = {
    "Title": "title",
    "Event": "event",
    "Date": "date",
    "Source": "source",
    "Comment": "comment",
    "Notes": "notes",
}
"""Free-text tags and the record's metadata fields they fill."""


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


_RULE_TYPES: dict[str, Any] = get_type_hints(Rules)
_OPTION_TAGS: dict[str, str] = {_camel(f.name): f.name for f in fields(Rules)}
"""``Target`` -> ``target``, …: one tag for each rule option, derived from :class:`Rules`."""
_POINT_NAMES = tuple(f.name for f in fields(Points))

_SEAT_TAGS = {seat.word: seat for seat in Seat}
_DEAL_TAGS = ("Dealer", *_SEAT_TAGS, "Upcard", "Kitty", "Farmer", "Discard")
_REQUIRED_TAGS = ("Dealer", *_SEAT_TAGS, "Upcard")
_TAG_ORDER = ("Hand", *_METADATA_TAGS, "Rules", *_OPTION_TAGS, *_DEAL_TAGS)


def _key(name: str) -> str:
    return re.sub(r"[-_\s]", "", name).lower()


_TAG_NAMES: dict[str, str] = {_key(name): name for name in _TAG_ORDER}
_TAG_NAMES.update({seat.value.lower(): seat.word for seat in Seat})

_BOOLEANS = {
    "yes": True,
    "y": True,
    "true": True,
    "on": True,
    "1": True,
    "no": False,
    "n": False,
    "false": False,
    "off": False,
    "0": False,
}
_CALL_WORDS: dict[str, str] = {
    "pass": "pass",
    "p": "pass",
    "orderup": "order_up",
    "order": "order_up",
    "pickup": "order_up",
    "pickitup": "order_up",
    "defendalone": "defend_alone",
    "defend": "defend_alone",
}
_NAME_WORDS = ("name", "names", "call", "calls")
_NO_TRUMP_WORDS = ("nt", "notrump", "notrumps")

_TAG_LINE = re.compile(r"\[\s*([^\s\]\"]+)\s*(.*?)\s*\]")
_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')
_TRICK_LINE = re.compile(r"([^\s:\[]+)\s*:(.*)")


# -- reading -------------------------------------------------------------------------------


@dataclass
class _Line:
    number: int
    text: str


@dataclass
class _Tag:
    line: int
    name: str
    value: str


@dataclass
class _Trick:
    line: int
    leader: Seat
    cards: list[str]


@dataclass
class _HandText:
    """The lines of one hand, sorted into tags, auction lines and trick lines."""

    first: int
    tags: list[_Tag] = field(default_factory=list)
    calls: list[_Line] = field(default_factory=list)
    tricks: list[_Line] = field(default_factory=list)
    by_hand_tag: bool = False

    @property
    def has_moves(self) -> bool:
        return bool(self.calls or self.tricks)


def parse_notation(text: str) -> dict[str, Any]:
    """Read one hand of the notation into a hand record, ready for ``parse_record``.

    Raise :class:`NotationError`, naming the line, where the text is not the notation or
    a trick line names the wrong leader. Cards come out canonical, in the order written;
    a hand that breaks the rules of play is returned as it is, for ``parse_record`` to
    reject with its own message.

    >>> parse_notation('[Dealr "W"]')
    Traceback (most recent call last):
    ...
    games.engine.errors.NotationError: line 1: unknown tag 'Dealr' (did you mean [Dealer]?)
    """
    hands = _split(text)
    if not hands:
        raise NotationError(_line(None), "no hand: the text holds no tags")
    record = _read_hand(hands[0], many=False)
    if len(hands) > 1:
        second = hands[1]
        if second.by_hand_tag:
            problem = "a second hand begins here; read several hands with parse_notation_many"
        else:
            problem = (
                "a tag after the auction and play begins a second hand: put every tag "
                "before the auction (or read several hands with parse_notation_many)"
            )
        raise NotationError(_line(second.first), problem)
    return record


def parse_notation_many(text: str) -> list[dict[str, Any]]:
    """Read every hand of a text into records, in order.

    A hand begins at a ``[Hand "…"]`` tag, or at a tag that follows the auction or play of
    the hand before. A hand written without an auction or play must therefore be followed
    by a ``[Hand]`` tag if another hand comes after it. Line numbers in errors count from the
    start of the whole text.
    """
    return [_read_hand(hand, many=True) for hand in _split(text)]


def _strip_comment(line: str) -> str:
    """The line without its comment: ``;`` or ``#`` outside a quoted tag value."""
    in_quotes = escaped = False
    for i, char in enumerate(line):
        if escaped:
            escaped = False
        elif char == "\\" and in_quotes:
            escaped = True
        elif char == '"':
            in_quotes = not in_quotes
        elif char in ";#" and not in_quotes:
            return line[:i]
    return line


def _split(text: str) -> list[_HandText]:
    hands: list[_HandText] = []
    current: _HandText | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        content = _strip_comment(raw).strip()
        if not content:
            continue
        line = _Line(number, content)
        if content.startswith("[") or any(mark in content for mark in '"[]'):
            tag = _read_tag(line)
            if current is None or tag.name == "Hand" or current.has_moves:
                current = _HandText(first=number, by_hand_tag=tag.name == "Hand")
                hands.append(current)
            current.tags.append(tag)
        elif current is None:
            raise NotationError(
                _line(number),
                'expected the tags of a hand ([Dealer "N"], [North "…"], …) '
                "before the auction and play",
            )
        elif _TRICK_LINE.fullmatch(content):
            current.tricks.append(line)
        elif current.tricks:
            raise NotationError(
                _line(number), "an auction line after the play: the auction comes first"
            )
        else:
            current.calls.append(line)
    return hands


def _read_tag(line: _Line) -> _Tag:
    match = _TAG_LINE.fullmatch(line.text)
    if match is None:
        raise NotationError(
            _line(line.number), f'malformed tag {shown(line.text)}: expected [Name "value"]'
        )
    raw_name, raw_value = match.groups()
    name = _TAG_NAMES.get(_key(raw_name))
    if name is None:
        known = {n.lower(): n for n in _TAG_ORDER}
        close = difflib.get_close_matches(raw_name.lower(), known, n=1)
        hint = f" (did you mean [{known[close[0]]}]?)" if close else ""
        raise NotationError(_line(line.number), f"unknown tag {shown(raw_name)}{hint}")
    if raw_value.startswith('"'):
        quoted = _QUOTED.fullmatch(raw_value)
        if quoted is None:
            raise NotationError(
                _line(line.number), f'[{name}]: malformed value {raw_value}: expected "value"'
            )
        value = re.sub(r"\\(.)", lambda m: "\n" if m[1] == "n" else m[1], quoted[1])
    elif '"' in raw_value:
        raise NotationError(
            _line(line.number), f'[{name}]: malformed value {raw_value}: expected "value"'
        )
    else:
        value = raw_value
    return _Tag(line.number, name, value)


def _read_hand(hand: _HandText, *, many: bool) -> dict[str, Any]:
    seen: dict[str, int] = {}
    for tag in hand.tags:
        if tag.name in seen:
            hint = "; begin each hand with a [Hand] tag" if many else ""
            raise NotationError(
                _line(tag.line),
                f"[{tag.name}] is given twice (also on line {seen[tag.name]}){hint}",
            )
        seen[tag.name] = tag.line
    for name in _REQUIRED_TAGS:
        if name not in seen:
            raise NotationError(_line(hand.first), f"the hand beginning here has no [{name}] tag")
    values = {tag.name: _read_value(tag) for tag in hand.tags}

    record: dict[str, Any] = {"format": FORMAT}
    for name, key in _METADATA_TAGS.items():
        if name in values:
            record[key] = values[name]
    options: dict[str, Any] = dict(values.get("Rules", {}))
    for name, option in _OPTION_TAGS.items():
        if name in values:
            value = values[name]
            if option == "points":
                value = {**options.get("points", {}), **value}
            options[option] = value
    record["rules"] = format_rules(parse_rules(options))
    record["dealer"] = values["Dealer"]
    record["hands"] = {seat.value: values[word] for word, seat in _SEAT_TAGS.items()}
    record["upcard"] = values["Upcard"]
    if values.get("Kitty"):
        record["kitty"] = values["Kitty"]
    record["farmer"] = values.get("Farmer")
    record["auction"] = [call for line in hand.calls for call in _read_calls(line)]
    record["discard"] = values.get("Discard")
    tricks = [_read_trick(line) for line in hand.tricks]
    if len(tricks) > 5:
        raise NotationError(_line(tricks[5].line), "a hand has only five tricks")
    record["play"] = [card for trick in tricks for card in trick.cards]
    _check_tricks(record, tricks)
    return record


def _read_value(tag: _Tag) -> Any:
    """The value of one tag, checked and canonical; ``None`` for an empty optional tag."""
    name = tag.name
    if name in _METADATA_TAGS or name == "Hand":
        return tag.value
    if name == "Rules":
        return _read_rules_tag(tag)
    if name in _OPTION_TAGS:
        return _read_option(tag, _OPTION_TAGS[name])
    if name == "Dealer":
        try:
            return parse_seat(tag.value).value
        except CardError as error:
            raise NotationError(_line(tag.line), f"[{name}]: {error.problem}") from None
    if name in _SEAT_TAGS:
        return _read_cards(tag)
    if name == "Upcard":
        return _read_one_card(tag)
    if not tag.value.strip():
        return None
    if name == "Kitty":
        return _read_cards(tag)
    if name == "Farmer":
        return _read_farmer(tag)
    assert name == "Discard", name
    return _read_one_card(tag)


def _tokens(value: str) -> list[str]:
    return value.replace(",", " ").split()


def _read_card(line: int, where: str, token: str, *, unknown_ok: bool = True) -> str:
    try:
        card = parse_card_or_unknown(token) if unknown_ok else parse_card(token)
    except CardError as error:
        if token.strip() == UNKNOWN:
            raise NotationError(
                _line(line), f"{where}: a card played must be known, not '??'"
            ) from None
        raise NotationError(_line(line), f"{where}: {error.problem}") from None
    return format_card(card)


def _read_cards(tag: _Tag) -> list[str]:
    return [_read_card(tag.line, f"[{tag.name}]", t) for t in _tokens(tag.value)]


def _read_one_card(tag: _Tag) -> str:
    tokens = _tokens(tag.value)
    if len(tokens) != 1:
        raise NotationError(
            _line(tag.line), f"[{tag.name}]: expected one card, got {shown(tag.value)}"
        )
    return _read_card(tag.line, f"[{tag.name}]", tokens[0])


def _read_farmer(tag: _Tag) -> dict[str, Any]:
    tokens = _tokens(tag.value)
    shape = "expected a seat and the three cards swapped, or a seat and 'redeal'"
    try:
        seat = parse_seat(tokens[0] if tokens else "")
    except CardError:
        raise NotationError(_line(tag.line), f"[Farmer]: {shape}, got {shown(tag.value)}") from None
    rest = tokens[1:]
    if [t.lower() for t in rest] == ["redeal"]:
        return {"seat": seat.value, "redeal": True}
    if not rest:
        raise NotationError(_line(tag.line), f"[Farmer]: {shape}, got {shown(tag.value)}")
    return {"seat": seat.value, "cards": [_read_card(tag.line, "[Farmer]", t) for t in rest]}


def _read_rules_tag(tag: _Tag) -> dict[str, Any]:
    value = tag.value.strip()
    if value.startswith("{"):
        try:
            options = json_loads(value)  # text opening with "{" is an object or no JSON
        except json.JSONDecodeError as error:
            raise NotationError(_line(tag.line), f"[Rules]: not valid JSON: {error.msg}") from None
    else:
        options = {"preset": value}
    try:
        parse_rules(options)
    except RuleError as error:
        # The tag stands for the whole ``rules`` field: an option is named, "rules" is not.
        problem = error.problem if error.where == "rules" else str(error)
        raise NotationError(_line(tag.line), f"[Rules]: {problem}") from None
    return cast(dict[str, Any], options)


_MAX_DIGITS = 9
"""The longest number a rules tag reads; the rules check its range (a target of 1 to 100),
and a longer one is refused before Python turns thousands of digits into an int."""


def _read_option(tag: _Tag, name: str) -> Any:
    kind = _RULE_TYPES[name]
    text = tag.value.strip()
    where = f"[{tag.name}]"
    if kind is bool:
        if text.lower() not in _BOOLEANS:
            raise NotationError(_line(tag.line), f"{where}: expected yes or no, got {shown(text)}")
        return _BOOLEANS[text.lower()]
    if kind is int:
        if not re.fullmatch(r"[-+]?\d+", text):
            raise NotationError(
                _line(tag.line), f"{where}: expected a whole number, got {shown(text)}"
            )
        if len(text.lstrip("+-")) > _MAX_DIGITS:
            raise NotationError(
                _line(tag.line), f"{where}: {shown(text)} is far too large a number"
            )
        number = int(text)
        try:
            parse_rules({name: number})
        except RuleError as error:
            problem = error.problem
            raise NotationError(_line(tag.line), f"{where}: {problem}") from None
        return number
    if kind is Points:
        points = _read_points(tag)
        try:
            parse_rules({"points": points})
        except RuleError as error:
            raise NotationError(_line(tag.line), f"[{tag.name}]: {error.problem}") from None
        return points
    choices = cast(tuple[str, ...], get_args(kind))
    choice = re.sub(r"[-\s]", "_", text.lower())
    if choice not in choices:
        listed = ", ".join(c.replace("_", "-") for c in choices)
        raise NotationError(
            _line(tag.line), f"{where}: expected one of {listed}, got {shown(text)}"
        )
    return choice


def _read_points(tag: _Tag) -> dict[str, int]:
    points: dict[str, int] = {}
    items = [item.strip() for item in re.split(r"[,;]", tag.value) if item.strip()]
    if not items:
        raise NotationError(
            _line(tag.line), "[Points]: expected points such as 'march 3, euchre 2'"
        )
    for item in items:
        match = re.fullmatch(rf"([A-Za-z][A-Za-z _-]*?)\s*[:=]?\s*(\d{{1,{_MAX_DIGITS}}})", item)
        if match is None:
            raise NotationError(
                _line(tag.line),
                f"[Points]: expected a name and a number such as 'march 3', got {shown(item)}",
            )
        name = re.sub(r"[-\s]", "_", match[1].lower())
        if name not in _POINT_NAMES:
            listed = ", ".join(n.replace("_", "-") for n in _POINT_NAMES)
            raise NotationError(
                _line(tag.line), f"[Points]: unknown points {shown(match[1])} (known: {listed})"
            )
        if name in points:
            raise NotationError(_line(tag.line), f"[Points]: {shown(match[1])} is given twice")
        points[name] = int(match[2])
    return points


def _read_calls(line: _Line) -> list[dict[str, Any]]:
    tokens = _tokens(line.text)
    calls: list[dict[str, Any]] = []
    i = 0
    while i < len(tokens):
        try:
            seat = parse_seat(tokens[i])
        except CardError:
            raise NotationError(
                _line(line.number),
                f"expected a seat (N, E, S or W) before a call, got {shown(tokens[i])}",
            ) from None
        i += 1
        if i == len(tokens):
            raise NotationError(_line(line.number), f"the call of {seat} is missing")
        call, i = _read_call(line.number, seat, tokens, i)
        calls.append(call)
    return calls


def _read_call(number: int, seat: Seat, tokens: list[str], i: int) -> tuple[dict[str, Any], int]:
    """The call at ``tokens[i]`` (after ``seat``) and the index of the token after it."""
    word = tokens[i]
    kind = _CALL_WORDS.get(_key(word))
    i += 1
    call: dict[str, Any] = {"seat": seat.value}
    if kind is None:
        if _key(word) in _NAME_WORDS:
            if i == len(tokens):
                raise NotationError(_line(number), f"{seat} names no suit after {shown(word)}")
            word = tokens[i]
            i += 1
        suit = _read_strain(word)
        if suit is None:
            raise NotationError(
                _line(number),
                f"unknown call {shown(word)} by {seat} "
                "(expected pass, order-up, a suit, NT or defend-alone)",
            )
        call.update(call="name", suit=suit, alone=False)
    else:
        call["call"] = kind
        if kind == "order_up":
            call["alone"] = False
    if i < len(tokens) and tokens[i].lower() == "alone":
        i += 1
        if kind == "pass":
            raise NotationError(_line(number), f"a pass cannot be alone ({seat} pass alone)")
        if kind != "defend_alone":
            call["alone"] = True
    return call, i


def _read_strain(word: str) -> str | None:
    if _key(word) in _NO_TRUMP_WORDS:
        return "NT"
    try:
        return parse_suit(word).value
    except CardError:
        return None


def _read_trick(line: _Line) -> _Trick:
    match = _TRICK_LINE.fullmatch(line.text)
    assert match is not None
    leader_text, rest = match.groups()
    try:
        leader = parse_seat(leader_text)
    except CardError:
        raise NotationError(
            _line(line.number),
            f"a trick line begins with the seat that leads, then ':', got {shown(leader_text)}",
        ) from None
    tokens = _tokens(rest)
    if not tokens:
        raise NotationError(_line(line.number), f"the trick led by {leader} has no cards")
    where = f"trick led by {leader}"
    cards = [_read_card(line.number, where, t, unknown_ok=False) for t in tokens]
    return _Trick(line.number, leader, cards)


# -- the trick lines against the replay ----------------------------------------------------


def _check_tricks(record: dict[str, Any], tricks: list[_Trick]) -> None:
    """Check each trick line's leader and length against the replay of the record.

    Problems with the hand itself (a renege, a card not held…) are left to
    ``parse_record``; only a wrong leader or a wrongly split trick is reported here, and
    only up to the first card the replay rejects.
    """
    if not tricks:
        return
    try:
        state = parse_record(record).state
        checked = len(tricks)
    except RecordError as error:
        failed = played_at(error)
        if failed is None:
            return
        before = 0
        checked = 0
        while before + len(tricks[checked].cards) <= failed:
            before += len(tricks[checked].cards)
            checked += 1
        state = parse_record({**record, "play": record["play"][:before]}).state
        while state.phase is Phase.DEFEND:
            state.apply(Call("pass"))
        if state.phase is not Phase.PLAY:
            return
        checked += 1
    active = state.active_seats
    for i, trick in enumerate(tricks):
        count, number = len(trick.cards), i + 1
        if count > len(active):
            out = [seat.value for seat in Seat if seat not in active]
            if out:
                sit = "sits" if len(out) == 1 else "sit"
                problem = f"but only {len(active)} seats play ({' and '.join(out)} {sit} out)"
            else:
                problem = f"but a trick has only {len(active)}"
            raise NotationError(_line(trick.line), f"trick {number} has {count} cards, {problem}")
        if count < len(active) and i < len(tricks) - 1:
            raise NotationError(
                _line(trick.line),
                f"trick {number} has {count} cards, but {len(active)} seats play; only the "
                "last trick of an unfinished hand may be short",
            )
    for i, trick in enumerate(tricks[:checked]):
        leader = state.tricks[i].leader
        if trick.leader is not leader:
            why = f", who won trick {i}" if i else _first_lead_reason(state, leader)
            raise NotationError(
                _line(trick.line), f"trick {i + 1} is led by {leader}{why}, not by {trick.leader}"
            )


def _first_lead_reason(state: HandState, leader: Seat) -> str:
    """Why ``leader`` leads the first trick, for messages."""
    lone = state.alone and state.maker is not None and state.rules.lone_lead == "left_of_maker"
    after = state.maker if lone and state.maker is not None else state.dealer
    name = "the lone maker" if lone else "the dealer"
    return f", left of {name}" if leader is after.next else f", the first left of {name} to play"


# -- writing -------------------------------------------------------------------------------


def format_notation(record: dict[str, Any] | HandRecord) -> str:
    """The canonical text of a record (a record dict, checked with ``parse_record``, or a
    :class:`HandRecord`). The text ends with a line break.

    The free-text metadata of a dict (``title``, ``event``…) is written as tags;
    ``id`` and ``players`` are not part of the notation.
    """
    if isinstance(record, HandRecord):
        checked, metadata = record, {}
    else:
        checked = parse_record(record)
        metadata = {
            name: record[key]
            for name, key in _METADATA_TAGS.items()
            if isinstance(record.get(key), str)
        }
    data = checked.canonical()
    tags: list[tuple[str, str]] = list(metadata.items())
    tags += _rules_tags(checked.rules)
    tags.append(("Dealer", data["dealer"]))
    tags += [(seat.word, " ".join(data["hands"][seat.value])) for seat in Seat]
    tags.append(("Upcard", data["upcard"]))
    if "kitty" in data:
        tags.append(("Kitty", " ".join(data["kitty"])))
    farmer = data["farmer"]
    if farmer is not None:
        tags.append(("Farmer", " ".join([farmer["seat"], *farmer.get("cards", ["redeal"])])))
    if data["discard"] is not None:
        tags.append(("Discard", data["discard"]))

    sections = ["\n".join(f"[{name} {_quote(value)}]" for name, value in tags)]
    if data["auction"]:
        sections.append("\n".join(_auction_lines(data["auction"])))
    tricks = [
        f"{trick.leader}: " + " ".join(str(card) for _, card in trick.cards)
        for trick in checked.state.tricks
        if trick.cards
    ]
    if tricks:
        sections.append("\n".join(tricks))
    return "\n\n".join(sections) + "\n"


def format_notation_many(records: Iterable[dict[str, Any] | HandRecord]) -> str:
    """The canonical text of several hands, each opened by ``[Hand "1"]``, ``[Hand "2"]``…,
    separated by blank lines; :func:`parse_notation_many` reads it back.
    """
    return "\n".join(
        f'[Hand "{i}"]\n' + format_notation(record) for i, record in enumerate(records, start=1)
    )


def _quote(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def _auction_lines(auction: list[dict[str, Any]]) -> list[str]:
    lines: list[str] = []
    current: list[str] = []
    passes = 0
    for call in auction:
        kind = call["call"]
        word = {"pass": "pass", "order_up": "order-up", "defend_alone": "defend-alone"}.get(
            kind, call.get("suit", "")
        )
        if call.get("alone"):
            word += " alone"
        current.append(f"{call['seat']} {word}")
        if kind == "pass":
            passes += 1
            if passes == 4:
                lines.append("  ".join(current))
                current = []
    if current:
        lines.append("  ".join(current))
    return lines


def _option_changes(base: Rules, rules: Rules) -> list[tuple[str, str]]:
    """The option tags that turn ``base`` into ``rules``."""
    changes: list[tuple[str, str]] = []
    for tag, name in _OPTION_TAGS.items():
        mine, theirs = getattr(rules, name), getattr(base, name)
        if mine == theirs:
            continue
        if isinstance(mine, Points):
            text = ", ".join(
                f"{point.replace('_', '-')} {getattr(mine, point)}"
                for point in _POINT_NAMES
                if getattr(mine, point) != getattr(theirs, point)
            )
        elif isinstance(mine, bool):
            text = "yes" if mine else "no"
        else:
            text = str(mine).replace("_", "-")
        changes.append((tag, text))
    return changes


def _distance(base: Rules, rules: Rules) -> int:
    changes = _option_changes(base, rules)
    return sum(text.count(",") + 1 if tag == "Points" else 1 for tag, text in changes)


def _rules_tags(rules: Rules) -> list[tuple[str, str]]:
    """``[Rules]`` naming the preset closest to ``rules`` (the first such, in the order of
    ``PRESETS``), then a tag for each option that differs from it.
    """
    preset = min(PRESETS, key=lambda name: _distance(PRESETS[name], rules))
    return [("Rules", preset), *_option_changes(PRESETS[preset], rules)]
