"""GRADE packs: the packs as suite tables (``packs``), number parsing (``text``), consistency (``consistency``),
composite intervals (``intervals``), the scorecard (``scorecard``), the example pack generator (``example_pack``)
and the grounding import (``import_grounding``)."""
