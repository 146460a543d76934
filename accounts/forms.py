from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm

from .models import User, timezone_names


class SignUpForm(UserCreationForm):
    """A new account: username, e-mail (for password resets) and password."""

    email = forms.EmailField(
        label="E-mail",
        help_text="Used only to send you a link if you forget your password.",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_email(self) -> str:
        email = self.cleaned_data["email"]
        if User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(
                "An account with this e-mail already exists. "
                "Log in, or reset your password if you have forgotten it."
            )
        return email


class SettingsForm(forms.ModelForm):
    """The user's own settings: for now, the time zone dates are entered and shown in."""

    timezone = forms.ChoiceField(
        label="Time zone",
        help_text="Due dates are entered and shown in this zone.",
    )

    class Meta:
        model = User
        fields = ("timezone",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["timezone"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [(name, name.replace("_", " ")) for name in timezone_names()]


class ApiTokenForm(forms.Form):
    """A new API token: only its name; the key is made by the site."""

    name = forms.CharField(
        label="Token name",
        max_length=100,
        help_text="What the token is for, e.g. “my scoring script”.",
        error_messages={"required": "Give the token a name, to tell it apart later."},
    )
