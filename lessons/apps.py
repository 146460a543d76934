from django.apps import AppConfig


class LessonsConfig(AppConfig):
    name = "lessons"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from .progress import progress_signed_in

        # Progress made before signing up or in moves to the account.
        user_logged_in.connect(progress_signed_in, dispatch_uid="lessons.keep_progress")
