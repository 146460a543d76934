from django.apps import AppConfig


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        from tables.models import Table
        from tables.signals import ranked_game_finished

        from .services import on_ranked_game_finished

        ranked_game_finished.connect(
            on_ranked_game_finished, sender=Table, dispatch_uid="ratings.rate_table"
        )
