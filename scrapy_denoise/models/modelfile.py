"""What every model file shares: JSON on disk, a format tag checked on load, one error type.

A model file is data only. Loading parses JSON and checks the ``format`` tag before the
model type reads a single field, so a file of another kind or version fails with a message
that names what it is, and nothing in it is ever executed (unlike pickle or joblib).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

__all__ = [
    "MALFORMED",
    "MAX_MODEL_BYTES",
    "ModelFormatError",
    "check_format",
    "load_file",
    "naming",
    "read_json",
    "write_json",
]


T = TypeVar("T")


class ModelFormatError(ValueError):
    """The file is not a model this version can read; the message says what is wrong."""


def check_format(data: Any, expected: str) -> dict[str, Any]:
    """``data`` as a dict when it carries the ``expected`` format tag."""
    if not isinstance(data, dict) or data.get("format") != expected:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise ModelFormatError(f"not a {expected} model (format: {found!r})")
    return data


#: bytes a model file may have: the shipped block model is 2 MB; a file of 2 million
#: support vectors took 54 s and 2.2 GB to load before anything said it was wrong
MAX_MODEL_BYTES = 64 * 1024 * 1024
#: exceptions that a malformed file raises while its fields are converted: ``int(1e400)``
#: (OverflowError), an index outside int32, a string where a number goes
MALFORMED = (KeyError, TypeError, ValueError, OverflowError)


def read_json(path: str | Path) -> Any:
    """The parsed file; :class:`ModelFormatError` for anything that is not a model-sized
    JSON file (``/dev/zero`` read forever, ``[[[...]]]`` 100,000 deep hit the recursion
    limit)."""
    path = Path(path)
    if path.exists() and not path.is_file():  # a missing file is the OSError it always was
        raise ModelFormatError(f"{path}: not a file")
    size = path.stat().st_size
    if size > MAX_MODEL_BYTES:
        raise ModelFormatError(f"{path}: {size:,} bytes, over the {MAX_MODEL_BYTES:,} a model has")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, RecursionError) as exc:
        raise ModelFormatError(f"{path}: not JSON ({type(exc).__name__}: {exc})") from exc


def load_file(path: str | Path, from_dict: Callable[[Any], T]) -> T:
    """The model in the file at ``path``, read by ``from_dict``; every
    :class:`ModelFormatError` names the file."""
    try:
        return from_dict(read_json(path))
    except ModelFormatError as exc:
        raise naming(path, exc) from exc.__cause__


def naming(path: str | Path, exc: ModelFormatError) -> ModelFormatError:
    """``exc`` with the file's path in front, where it does not name it yet: a crawl's error
    line must say which file (and so which setting) is wrong."""
    if str(path) in str(exc):
        return exc
    named = ModelFormatError(f"{path}: {exc}")
    named.__cause__ = exc.__cause__
    return named


def write_json(path: str | Path, data: dict[str, Any]) -> None:
    Path(path).write_text(json.dumps(data, separators=(",", ":")) + "\n")
