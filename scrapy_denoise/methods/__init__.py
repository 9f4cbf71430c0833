"""Extraction methods, one module each, named as in the papers.

Every method reads the shared :class:`~scrapy_denoise.document.Document` and returns an
:class:`~scrapy_denoise.methods.base.Extraction`; :func:`create_method` builds one by name so
the Denoiser, the CLI and the benchmark select methods the same way.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping

from .base import Extraction, Method

__all__ = [
    "METHODS",
    "Extraction",
    "Method",
    "UnknownMethodError",
    "check_method_name",
    "create_method",
]

#: public name -> "module:Class"; ``default`` is the measured best chain (BENCHMARKS.md)
METHODS: dict[str, str] = {
    "block_ensemble": "block_svm:BlockEnsembleMethod",
    "block_svm": "block_svm:BlockSvmMethod",
    "punctuation": "punctuation:PunctuationMethod",
    "correlativity": "correlativity:CorrelativityMethod",
    "cevc": "cevc:CevcMethod",
}
#: measured best single-page chain on held-out pages (BENCHMARKS.md, extraction section):
#: the block ensemble (block SVM + boosted trees) ahead of the block SVM alone
DEFAULT_METHOD = "block_ensemble"


class UnknownMethodError(ValueError):
    """Raised for a method name that does not exist; the message lists the valid ones."""


def check_method_name(name: str) -> None:
    """Raise :class:`UnknownMethodError` unless ``name`` is ``default`` or a method's name;
    cheap (no module is imported), so settings can be checked before a crawl starts."""
    if name != "default" and name not in METHODS:
        choices = ", ".join(["default", *METHODS])
        raise UnknownMethodError(f"unknown extraction method {name!r}; choose one of {choices}")


def create_method(name: str, params: Mapping[str, Mapping[str, object]] | None = None) -> Method:
    """Build the method called ``name`` with its parameter overrides from ``params[name]``."""
    params = params or {}
    # Overrides given for "default" apply to whichever method the default is; without this
    # a {"default": {...}} from DENOISE_METHOD_PARAMS was silently ignored.
    overrides = dict(params.get(name, {}))
    if name == "default":
        name = DEFAULT_METHOD
        overrides = {**params.get(name, {}), **overrides}
    check_method_name(name)
    module_name, class_name = METHODS[name].split(":")
    module = importlib.import_module(f"{__name__}.{module_name}")
    cls = getattr(module, class_name)
    method: Method = cls(**overrides) if overrides else cls()
    return method
