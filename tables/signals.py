"""Signals of the tables app.

``ranked_game_finished(sender=Table, table=table)`` is sent once a ranked game ends (after
its transaction commits), for the ratings to update; ``table.places`` holds the places.
"""

from django.dispatch import Signal

ranked_game_finished = Signal()
