"""Every error the engine raises: one ``ValueError`` hierarchy, in python-chess's shape.

- :class:`EuchreError` is the base: catch it to catch anything the engine refuses.
- :class:`NotationError` is for what cannot be read (or written): a card, an action, the
  rules, a record, the text notation, an EGN file, a source of records. It carries
  ``where`` (the field, line or deal at fault: ``play[7]``, ``hands.N[2]``,
  ``rules.target``, ``line 12``; ``""`` when the whole value is at fault) and ``problem``
  (what is wrong), and reads ``where: problem``. Each notation has its subclass, so that a
  caller can catch the one it reads.
- :class:`IllegalActionError` is for what the rules forbid: an action out of turn, a
  renege, a game used out of order.

>>> error = RecordError("play[7]", "E must follow hearts (holds 9H) but played AC")
>>> str(error)
'play[7]: E must follow hearts (holds 9H) but played AC'
>>> isinstance(error, NotationError) and isinstance(error, ValueError)
True
>>> str(CardError("", "unknown card 'ZZ'"))
"unknown card 'ZZ'"
"""

from __future__ import annotations

import reprlib

__all__ = [
    "ActionError",
    "CardError",
    "EgnError",
    "EgnWriteError",
    "EuchreError",
    "IllegalActionError",
    "NotationError",
    "PtnError",
    "RecordError",
    "RuleError",
    "SourceError",
    "shown",
]


_SHOWN = reprlib.Repr(maxlevel=3, maxdict=8, maxlist=8, maxstring=60, maxother=60, maxlong=60)


def shown(value: object) -> str:
    """``repr(value)`` for a message, cut short: a megabyte of text, or JSON nested a
    thousand deep, is quoted by its first characters and levels, never whole.

    >>> shown("JH"), shown("x" * 1000)[:12], len(shown("x" * 1000)) <= 60
    ("'JH'", "'xxxxxxxxxxx", True)
    >>> shown([[[[["deep"]]]]])
    '[[[[...]]]]'
    """
    return _SHOWN.repr(value)


class EuchreError(ValueError):
    """Anything the engine refuses."""


class NotationError(EuchreError):
    """A value that cannot be read: ``where`` it is at fault, and the ``problem``."""

    def __init__(self, where: str, problem: str) -> None:
        self.where = where
        self.problem = problem
        super().__init__(f"{where}: {problem}" if where else problem)

    def __reduce__(self) -> tuple[type[NotationError], tuple[str, str]]:
        # Pickled (by a worker pool, say) with both arguments, not the message alone.
        return type(self), (self.where, self.problem)


class CardError(NotationError):
    """Text that is not a card, suit or seat."""


class ActionError(NotationError):
    """Text that is not an action (``games.engine.actions``)."""


class RuleError(NotationError):
    """A rules value that names an unknown preset or option, or a bad value; ``where`` is
    ``rules`` or the option (``rules.target``)."""


class RecordError(NotationError):
    """An invalid hand record; ``where`` is the record's field (``play[7]``, ``hands.N``),
    ``""`` for the record as a whole."""


class EgnError(NotationError):
    """An EGN file, or one deal of it, that cannot be read. For the file, ``where`` is its
    field (``metadata.ruleset.std``); for a deal, the place in the deal (``trick 2``,
    ``call 5 (W)``) or ``""``."""


class PtnError(NotationError):
    """Trickster Cards' PTN text, or one hand of it, that cannot be read; ``where`` is the
    line (``line 12``), or ``""`` for the text as a whole."""


class EgnWriteError(NotationError):
    """A record EGN cannot express (a farmer's hand swap, say); ``where`` names the deal and
    the field."""


class SourceError(NotationError):
    """An input that as a whole cannot be read: no such file, not JSON, not EGN; ``where``
    is the file, or ``""``."""


class IllegalActionError(EuchreError):
    """An action the rules do not allow here, or a game used out of order; the message
    says why."""
