import datetime as dt
from typing import Any, ClassVar, Self

from django.contrib.auth.models import User
from django.db import models
from django.db.models.expressions import Combinable
from typing_extensions import TypeVar

_T = TypeVar("_T", bound=AbstractAuthToken)

def get_expiry(expiry: dt.timedelta | None) -> dt.datetime | None: ...
def get_digest_token(prefix: str | None = None) -> tuple[str, str]: ...

class AuthTokenManager(models.Manager[_T]):
    # knox's create answers the new row and its key, which is stored nowhere.
    def create(  # type: ignore[override]
        self,
        user: User,
        expiry: dt.timedelta | None = ...,
        prefix: str | None = None,
        **kwargs: Any,
    ) -> tuple[_T, str]: ...

class AbstractAuthToken(models.Model):
    objects: ClassVar[AuthTokenManager[Self]]

    digest: models.CharField[str | int | Combinable, str]
    token_key: models.CharField[str | int | Combinable, str]
    user: models.ForeignKey[User | Combinable, User]
    created: models.DateTimeField[str | dt.datetime | dt.date | Combinable, dt.datetime]
    expiry: models.DateTimeField[
        str | dt.datetime | dt.date | Combinable | None, dt.datetime | None
    ]

    class Meta:
        abstract: ClassVar[bool]

class AuthToken(AbstractAuthToken): ...

def get_token_model() -> type[AbstractAuthToken]: ...
