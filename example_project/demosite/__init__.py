"""Offline demo news site ("Demo Daily") with ground truth, and a loopback HTTP server.

The demo has to need denoising to be worth showing, so the generated pages carry the chrome
real news CMSs emit (menus, sidebars, ads, related teasers, comments, cookie banners) around
article text whose exact truth is recorded in ``manifest.json``.
"""

from __future__ import annotations

from demosite.generate import Manifest, PageRecord, generate
from demosite.serve import serve

__all__ = ["Manifest", "PageRecord", "generate", "serve"]
