from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self) -> None:
        from axes.signals import user_locked_out
        from django.db.models.signals import post_delete, post_save

        from .backends import forget_token, forget_user
        from .lockout import tell_owner
        from .models import ApiToken, User

        user_locked_out.connect(tell_owner, dispatch_uid="accounts.lockout.tell_owner")
        post_save.connect(forget_user, sender=User, dispatch_uid="accounts.forget_user.saved")
        post_delete.connect(forget_user, sender=User, dispatch_uid="accounts.forget_user.gone")
        post_delete.connect(
            forget_token, sender=ApiToken, dispatch_uid="accounts.forget_token.revoked"
        )
