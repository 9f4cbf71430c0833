"""Page-level decisions: is this page an article or a noise page?"""

from .classifier import PageClassifier, PageModel
from .features import FEATURE_NAMES, PageFeatures, page_features
from .rules import PageRules, apply_rules
from .verdict import PageVerdict

__all__ = [
    "FEATURE_NAMES",
    "PageClassifier",
    "PageFeatures",
    "PageModel",
    "PageRules",
    "PageVerdict",
    "apply_rules",
    "page_features",
]
