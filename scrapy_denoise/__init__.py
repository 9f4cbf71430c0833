"""scrapy-denoise: clean article text from a Scrapy crawl of news and article sites.

The core (this package minus :mod:`scrapy_denoise.integration`) is plain Python over lxml;
the Scrapy components are thin adapters over :class:`Denoiser`.
"""

from .article import Article
from .denoiser import Denoiser
from .options import DenoiseOptions
from .page.rules import PageRules
from .page.verdict import PageVerdict

__all__ = ["Article", "DenoiseOptions", "Denoiser", "PageRules", "PageVerdict"]
__version__ = "0.1.0"
