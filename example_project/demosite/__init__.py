"""Offline demo news site ("Demo Daily") with ground truth, and a loopback HTTP server.

The demo has to need denoising to be worth showing, so the generated pages carry the chrome
real news CMSs emit (menus, sidebars, ads, related teasers, comments, cookie banners) around
article text whose exact truth is recorded in ``manifest.json``.

Import from the submodules (``from demosite.generate import generate``,
``from demosite.serve import serve``): the functions share their modules' names, so
re-exporting them here would make ``demosite.generate`` mean the function or the module
depending on import order, and ``python -m demosite.generate`` would import itself twice.
"""

from __future__ import annotations
