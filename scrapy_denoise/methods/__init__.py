"""Extraction methods, one module each, named as in the papers.

Every method reads the shared :class:`~scrapy_denoise.document.Document` and returns an
:class:`~scrapy_denoise.methods.base.Extraction`; :func:`create_method` builds one by name so
the Denoiser, the CLI and the benchmark select methods the same way.
"""

from __future__ import annotations

import importlib
import inspect
import logging
from collections.abc import Mapping

from .base import Extraction, Method, check_param_type

__all__ = [
    "METHODS",
    "Extraction",
    "Method",
    "UnknownMethodError",
    "check_method_name",
    "check_method_params",
    "create_method",
]

logger = logging.getLogger(__name__)

#: public name -> "module:Class"; the name ``default`` is not here: it stands for
#: :data:`DEFAULT_METHOD`, the measured best chain (BENCHMARKS.md)
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


def check_method_params(params: object) -> None:
    """Raise unless ``params`` maps ``default`` or method names to dicts of parameters.

    Cheap like :func:`check_method_name`, so options and settings are checked when given.
    Without it a flat ``{"alpha": 0.6}`` (read as the parameters of a method ``alpha``), a
    misspelt method name or ``{"cevc": 0.6}`` were ignored without a word, and the method
    ran with its defaults.
    """
    example = "{'cevc': {'alpha': 0.6}}"
    if not isinstance(params, Mapping):
        raise TypeError(
            f"method_params must map method names to parameters, e.g. {example}; "
            f"got {type(params).__name__}"
        )
    for name, values in params.items():
        try:
            check_method_name(name)
        except UnknownMethodError as exc:
            raise UnknownMethodError(
                f"method_params: {exc} (method_params maps method names to parameters, "
                f"e.g. {example})"
            ) from None
        if not isinstance(values, Mapping):
            raise TypeError(
                f"method_params[{name!r}] must be a dict of parameters, e.g. {example}; "
                f"got {type(values).__name__} {values!r}"
            )


def create_method(
    name: str,
    params: Mapping[str, Mapping[str, object]] | None = None,
    *,
    warn_ignored: bool = True,
) -> Method:
    """Build the method called ``name`` with its parameter overrides from ``params[name]``.

    ``params`` may hold parameters of other methods too (settings keep them for several);
    those are logged as ignored, once per method built, so a user who set parameters for a
    method that is not the one running learns it (``warn_ignored=False`` for a build that
    only checks the parameters, or repeats the crawl's own). A parameter of the wrong type
    or unknown to the method raises :class:`TypeError` naming the method.
    """
    params = params or {}
    check_method_name(name)
    check_method_params(params)
    # Overrides given for "default" apply to whichever method the default is, ahead of those
    # under its own name; without this a {"default": {...}} from DENOISE_METHOD_PARAMS was
    # silently ignored.
    keys = (DEFAULT_METHOD, "default") if name == "default" else (name,)
    ignored = [key for key, values in params.items() if values and key not in keys]
    if ignored and warn_ignored:
        running = f"default ({DEFAULT_METHOD})" if name == "default" else name
        logger.warning(
            "method_params for %s ignored: the extraction method is %s",
            ", ".join(ignored),
            running,
        )
    overrides = {k: v for key in keys for k, v in params.get(key, {}).items()}
    resolved = keys[0]
    module_name, class_name = METHODS[resolved].split(":")
    module = importlib.import_module(f"{__name__}.{module_name}")
    cls = getattr(module, class_name)
    try:
        _check_constructor_types(cls, overrides)
        method: Method = cls(**overrides)
    except TypeError as exc:
        raise TypeError(f"method {resolved!r}: {exc}") from exc
    return method


def _check_constructor_types(cls: type, overrides: Mapping[str, object]) -> None:
    """Check overrides of the constructor's own keyword arguments against their defaults'
    types; methods configured by a parameter dataclass check theirs in
    :func:`~scrapy_denoise.methods.base.override_params`."""
    parameters = inspect.signature(cls).parameters
    for key, value in overrides.items():
        parameter = parameters.get(key)
        if parameter is not None and parameter.default is not inspect.Parameter.empty:
            check_param_type(key, parameter.default, value)
