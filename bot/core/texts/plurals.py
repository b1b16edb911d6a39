"""English texts whose words follow a number: ``1 article``, ``2 articles``."""

from __future__ import annotations

import re
from typing import Any

__all__ = ["Counted"]

# "[one|many]": the word for one, then the word for any other number.
_CHOICE = re.compile(r"\[([^|\]]*)\|([^\]]*)\]")


class Counted(str):
    """A text whose ``[one|many]`` choices follow the number given as ``by`` when formatted.

    A ``str`` still, so it fills a field of ``Texts`` like any text and callers format it the
    usual way; only the English record needs it, Turkish nouns keep one form after a number.
    """

    by: str

    def __new__(cls, text: str, by: str = "count") -> Counted:
        """The text, its choices following the value named ``by``."""
        counted = super().__new__(cls, text)
        counted.by = by
        return counted

    def format(self, *args: object, **kwargs: Any) -> str:
        """The text formatted, each choice made by the number."""
        one = str(kwargs.get(self.by)) == "1"
        filled = str.format(self, *args, **kwargs)
        return _CHOICE.sub(lambda m: m[1] if one else m[2], filled)
