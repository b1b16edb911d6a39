"""The error tree as its docstring draws it is the tree the classes make, marks included."""

from __future__ import annotations

import re

import pytest
from prometheus_client import REGISTRY

from bot.api import CallReport, errors
from bot.core.operations.operations import Operations
from tests.fakes import ManualClock

# A line of the drawing: indentation, the branch, the class name, then its marks, if any.
_DRAWN = re.compile(r"^(?P<indent>[ │]*)(?:[├└]── )?(?P<name>\w+)\s*(?:\[(?P<marks>[UC ]+)\])?")
_FACTS = {"U": "unreachable", "C": "may_have_charged"}


def _every_class() -> set[type[errors.ArticleApiError]]:
    found: set[type[errors.ArticleApiError]] = set()
    waiting = [errors.ArticleApiError]
    while waiting:
        cls = waiting.pop()
        found.add(cls)
        waiting.extend(cls.__subclasses__())
    return found


def _drawing() -> list[tuple[int, str, set[str]]]:
    """(depth, class name, facts) for each line of the tree in the module's docstring."""
    doc = errors.__doc__ or ""
    tree = doc[doc.index("    ArticleApiError") :].split("\n\n")[0]
    lines = []
    for line in tree.splitlines():
        match = _DRAWN.match(line.removeprefix("    "))
        assert match, line
        depth = len(match["indent"]) // 4 + (0 if match["name"] == "ArticleApiError" else 1)
        marks = set((match["marks"] or "").split())
        lines.append((depth, match["name"], {_FACTS[mark] for mark in marks}))
    return lines


def test_the_drawn_tree_names_every_class_under_its_real_parent_with_its_facts() -> None:
    drawn = _drawing()
    classes = {cls.__name__: cls for cls in _every_class()}
    assert {name for _, name, _ in drawn} == set(classes), "a class is missing from the drawing"
    parents: list[str] = []
    for depth, name, facts in drawn:
        del parents[depth:]
        cls = classes[name]
        if parents:
            assert cls.__bases__ == (classes[parents[-1]],), name
        parents.append(name)
        for fact in _FACTS.values():
            assert getattr(cls, fact) is (fact in facts), f"{name}.{fact}"


def _uncertain() -> float:
    return REGISTRY.get_sample_value("makale_uncertain_orders_total", {"outcome": "unknown"}) or 0


@pytest.mark.parametrize("cls", sorted(_every_class(), key=lambda cls: cls.__name__))
async def test_a_paid_call_is_counted_uncertain_exactly_when_its_failure_may_have_charged(
    cls: type[errors.ArticleApiError],
) -> None:
    operations = Operations(clock=ManualClock())
    before = _uncertain()
    await operations.upstream_called(CallReport("create", True, 0.1, cls("create: failed")))
    assert (_uncertain() - before == 1) is cls.may_have_charged
