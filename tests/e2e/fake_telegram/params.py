"""Typed access to one request's parameters, refusing wrong ones with the Bot API's errors."""

from __future__ import annotations

from typing import Any

from tests.e2e.fake_telegram.records import JSON, UploadedFile
from tests.e2e.fake_telegram.replies import bad_request

__all__ = ["Params"]


class Params:
    """The decoded parameters and files of one request."""

    def __init__(self, values: dict[str, Any], files: dict[str, UploadedFile]) -> None:
        self.values = values
        self.files = files

    def __contains__(self, name: str) -> bool:
        return self.values.get(name) is not None

    def string(self, name: str) -> str:
        """The parameter as text; empty when absent. Numbers are taken as their digits."""
        value = self.values.get(name)
        if value is None:
            return ""
        if isinstance(value, bool):
            return str(value).lower()
        if isinstance(value, str | int | float):
            return str(value)
        raise bad_request(f'parameter "{name}" must be a string')

    def integer(self, name: str, *, missing: str) -> int:
        """The parameter as an integer; ``Bad Request: <missing>`` when absent."""
        value = self.optional_integer(name)
        if value is None:
            raise bad_request(missing)
        return value

    def optional_integer(self, name: str) -> int | None:
        """The parameter as an integer, None when absent."""
        value = self.values.get(name)
        if value is None or (isinstance(value, int) and not isinstance(value, bool)):
            return value
        if isinstance(value, str) and value.lstrip("-").isdigit():
            return int(value)
        raise bad_request(f'parameter "{name}" must be an integer')

    def number(self, name: str, default: float) -> float:
        """The parameter as a number, ``default`` when absent."""
        value = self.values.get(name, default)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        raise bad_request(f'parameter "{name}" must be a number')

    def flag(self, name: str) -> bool:
        """The parameter as a boolean, False when absent."""
        value = self.values.get(name, False)
        return value is True or (isinstance(value, str) and value.lower() in ("true", "1"))

    def json_object(self, name: str) -> JSON | None:
        """The parameter as a JSON object, None when absent."""
        value = self.values.get(name)
        if value is None or isinstance(value, dict):
            return value
        raise bad_request(f"can't parse {name} JSON object")

    def json_list(self, name: str) -> list[Any] | None:
        """The parameter as a JSON array, None when absent."""
        value = self.values.get(name)
        if value is None or isinstance(value, list):
            return value
        raise bad_request(f"can't parse {name} JSON array")
