"""Reports that show what the denoiser decided: one page (``scrapy-denoise report``) and a
store's learned sites (``scrapy-denoise summary``), as self-contained HTML files.

Both are imported lazily by the CLI; nothing here is needed while crawling.
"""

from __future__ import annotations
