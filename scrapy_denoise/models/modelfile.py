"""What every model file shares: JSON on disk, a format tag checked on load, one error type.

A model file is data only. Loading parses JSON and checks the ``format`` tag before the
model type reads a single field, so a file of another kind or version fails with a message
that names what it is, and nothing in it is ever executed (unlike pickle or joblib).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["ModelFormatError", "check_format", "read_json", "write_json"]


class ModelFormatError(ValueError):
    """The file is not a model this version can read; the message says what is wrong."""


def check_format(data: Any, expected: str) -> dict[str, Any]:
    """``data`` as a dict when it carries the ``expected`` format tag."""
    if not isinstance(data, dict) or data.get("format") != expected:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise ModelFormatError(f"not a {expected} model (format: {found!r})")
    return data


def read_json(path: str | Path) -> Any:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except ValueError as exc:
        raise ModelFormatError(f"{path}: not JSON ({exc})") from exc


def write_json(path: str | Path, data: dict[str, Any]) -> None:
    Path(path).write_text(json.dumps(data, separators=(",", ":")) + "\n")
