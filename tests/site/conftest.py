import pytest
from pytest_django.fixtures import Settings

from accounts.models import User

PASSWORD = "a-long-enough-passphrase-7"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Settings) -> None:
    # The real hasher is slow on purpose; these tests check flows, not hashing.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def alice(db: None) -> User:
    return User.objects.create_user("alice", "alice@example.com", PASSWORD)


@pytest.fixture
def bob(db: None) -> User:
    return User.objects.create_user("bob", "bob@example.com", PASSWORD)
