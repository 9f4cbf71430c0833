"""How to install one of the package's optional extras, for the messages of a missing module.

The package is installed from a checkout, not from PyPI, so ``pip install
'scrapy-denoise[postgresql]'`` would fail or, worse, fetch a stranger's package of that
name. The hint names the checkout this copy was installed from when there is one (an
editable install, the usual case), else says where the path goes.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["install_hint"]


def _checkout() -> Path | None:
    """The repository this copy runs from, when it runs from one (``pip install -e``)."""
    root = Path(__file__).resolve().parent.parent
    return root if (root / "pyproject.toml").is_file() else None


def install_hint(extra: str) -> str:
    """``pip install -e "/path/to/checkout[extra]"``, or with a placeholder path."""
    checkout = _checkout()
    if checkout is not None:
        return f'pip install -e "{checkout}[{extra}]"'
    return f'pip install "path/to/scrapy-denoise[{extra}]" (a checkout of the repository)'
