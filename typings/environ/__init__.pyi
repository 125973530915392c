import builtins
from typing import Any

class Env:
    smart_cast: bool
    escape_proxy: bool
    warn_on_default: bool
    prefix: builtins.str
    def __init__(self, **scheme: Any) -> None: ...
    def str(
        self,
        var: builtins.str,
        default: builtins.str = ...,
        multiline: bool = False,
        choices: Any = ...,
    ) -> builtins.str: ...
    # A DATABASES entry: ENGINE, NAME, USER, PASSWORD, HOST, PORT and OPTIONS, as the URL has them.
    @classmethod
    def db_url_config(
        cls, url: builtins.str, engine: builtins.str | None = None
    ) -> dict[builtins.str, Any]: ...
