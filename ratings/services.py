"""Rating a finished ranked game with OpenSkill (the Plackett-Luce model).

The teams are North-South and East-West, each of its two seats' players at the end. A
person is rated; a computer player is a fixed player of the default rating (mu 25, sigma
25/3) that is never updated, so a team of computer players is still a real opponent. A
person a computer player replaced is their own entry, ranked last, below both teams (the
computer player who took the seat plays on in the team).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from openskill.models import PlackettLuce

from accounts.models import User
from tables.models import Table, TableSeat

from .models import DEFAULT_MU, DEFAULT_SIGMA, Rating, RatingChange, shown

MODEL = PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)

TEAMS = {"NS": ("N", "S"), "EW": ("E", "W")}


def on_ranked_game_finished(sender: object, table: Table, **kwargs: Any) -> None:
    rate_table(table.pk)


def rate_table(table_id: int) -> int:
    """Rate the people of finished ranked table ``table_id``, once. Returns how many were
    rated now (0 when not ranked, not finished, or rated before)."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if not table.ranked or table.status != Table.Status.FINISHED or not table.places:
            return 0
        if RatingChange.objects.filter(table=table).exists():
            return 0
        seats = {row.seat: row for row in TableSeat.objects.filter(table=table)}
        people = [row.user for row in seats.values() if row.user is not None]
        if not people:
            return 0
        ratings = {r.user_id: r for r in _ratings_of(people)}
        teams: list[list[Any]] = []
        ranks: list[float] = []
        owners: list[list[User | None]] = []
        for name, letters in TEAMS.items():
            team: list[Any] = []
            who: list[User | None] = []
            for letter in letters:
                row = seats.get(letter)
                if row is not None and row.user is not None and not row.replaced:
                    r = ratings[row.user.pk]
                    team.append(MODEL.rating(mu=r.mu, sigma=r.sigma))
                    who.append(row.user)
                else:
                    team.append(MODEL.rating())  # a computer player: default, fixed
                    who.append(None)
            teams.append(team)
            owners.append(who)
            ranks.append(team_ranks(table.places)[name])
        for _letter, row in sorted(seats.items()):
            if row.replaced and row.user is not None:
                r = ratings[row.user.pk]
                teams.append([MODEL.rating(mu=r.mu, sigma=r.sigma)])
                owners.append([row.user])
                ranks.append(3)
        new = MODEL.rate(teams, ranks=ranks)
        places = {
            row.user.pk: int(table.places.get(letter, 3))
            for letter, row in seats.items()
            if row.user is not None
        }
        changes = []
        for rated, owned in zip(new, owners, strict=True):
            for player, user in zip(rated, owned, strict=True):
                if user is None:
                    continue
                r = ratings[user.pk]
                changes.append(
                    RatingChange(
                        user=user,
                        table=table,
                        place=places[user.pk],
                        mu_before=r.mu,
                        sigma_before=r.sigma,
                        shown_before=shown(r.mu, r.sigma),
                        mu_after=player.mu,
                        sigma_after=player.sigma,
                        shown_after=shown(player.mu, player.sigma),
                    )
                )
                r.mu, r.sigma = player.mu, player.sigma
                r.shown = shown(player.mu, player.sigma)
                r.games += 1
                r.save()
        RatingChange.objects.bulk_create(changes)
        return len(changes)


def team_ranks(places: dict[str, int]) -> dict[str, int]:
    """Each team's rank, 1 (won) or 2, from the seats' places; a replaced seat's 3 says
    nothing, so the winners are the team with a 1, or else the team without a 2."""
    won = [n for n, letters in TEAMS.items() if any(places.get(s) == 1 for s in letters)]
    if not won:
        won = [n for n, letters in TEAMS.items() if not any(places.get(s) == 2 for s in letters)]
    winner = won[0] if won else "NS"
    return {n: 1 if n == winner else 2 for n in TEAMS}


def _ratings_of(people: list[User]) -> list[Rating]:
    for user in people:
        Rating.objects.get_or_create(user=user)
    return list(Rating.objects.select_for_update().filter(user__in=people))
