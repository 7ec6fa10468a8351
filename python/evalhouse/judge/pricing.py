"""Judge call prices, cost and token estimates.

Prices are US dollars per million tokens, input and output separately, from ``prices.csv`` beside this module
(model, prices, the date they took effect and where they were read). Vendors change prices: pass
``--price-input`` / ``--price-output`` (USD per million tokens) to override or to price a model the table lacks.
A model with no price gets cost NULL and a reason, never 0.

Token estimates (used before a call, never stored as if they were counts):
- ``estimate_tokens``: the common rule of thumb for English BPE tokenizers, about 4 characters per token
  (OpenAI's tokenizer guide), plus 4 tokens of chat framing per message and 3 to prime the reply
  (OpenAI cookbook, "How to count tokens with tiktoken"). Typical, not a bound.
- ``max_input_tokens``: an upper bound: a byte-level BPE token covers at least one UTF-8 byte, so a message has at
  most as many tokens as bytes, plus the same framing. The budget cap reserves this bound plus ``max_tokens`` of
  output for every call before it is sent, so a run never spends more than its budget.
"""
from __future__ import annotations

import csv
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

__all__ = ["Price", "load_prices", "price_for", "call_cost", "estimate_tokens", "max_input_tokens"]

PRICES_FILE = Path(__file__).with_name("prices.csv")
MILLION = Decimal(1_000_000)
MESSAGE_FRAMING_TOKENS = 4
REPLY_PRIMING_TOKENS = 3
CHARS_PER_TOKEN = 4


@dataclass(frozen=True)
class Price:
    """USD per million tokens; ``source`` says where the figure comes from."""

    input_per_mtok: Decimal
    output_per_mtok: Decimal
    source: str


def load_prices(path: Path | None = None) -> dict[str, Price]:
    """The pricing table: judge model -> Price. Raises ValueError naming file, row and column on a bad price."""
    path = Path(path) if path else PRICES_FILE
    table: dict[str, Price] = {}
    with open(path, encoding="utf-8", newline="") as fh:
        for line, row in enumerate(csv.DictReader(fh), start=2):
            values = {}
            for col in ("input_usd_per_mtok", "output_usd_per_mtok"):
                try:
                    values[col] = Decimal(row[col])
                except Exception:
                    raise ValueError(f"{path}:{line}:{col}: {row.get(col)!r} is not a price") from None
                if values[col] < 0:
                    raise ValueError(f"{path}:{line}:{col}: a price cannot be negative")
            table[row["judge_model"]] = Price(values["input_usd_per_mtok"], values["output_usd_per_mtok"],
                                              f"{row['source']}, as of {row['as_of']}")
    return table


def price_for(model: str, input_per_mtok: Decimal | None = None, output_per_mtok: Decimal | None = None,
              table: dict[str, Price] | None = None) -> Price | None:
    """The price of ``model``: both CLI prices when given, else the table's row, else None (cost unknown).

    Giving only one of the two CLI prices is an error (ValueError): a half-priced call would look cheap."""
    if (input_per_mtok is None) != (output_per_mtok is None):
        raise ValueError("give both --price-input and --price-output (USD per million tokens), or neither")
    if input_per_mtok is not None:
        if input_per_mtok < 0 or output_per_mtok < 0:
            raise ValueError("prices cannot be negative")
        return Price(Decimal(input_per_mtok), Decimal(output_per_mtok), "command-line options")
    table = load_prices() if table is None else table
    return table.get(model)


def call_cost(price: Price | None, input_tokens: int | None, output_tokens: int | None) -> Decimal | None:
    """Exact cost in USD = input_tokens x input price / 1e6 + output_tokens x output price / 1e6.

    None when the price or either token count is unknown (the caller records why)."""
    if price is None or input_tokens is None or output_tokens is None:
        return None
    return (Decimal(input_tokens) * price.input_per_mtok + Decimal(output_tokens) * price.output_per_mtok) / MILLION


def estimate_tokens(messages: list[dict]) -> int:
    """Typical prompt tokens: ceil(characters / 4) per message + 4 framing tokens per message + 3."""
    return sum(-(-len(m["content"]) // CHARS_PER_TOKEN) + MESSAGE_FRAMING_TOKENS for m in messages) \
        + REPLY_PRIMING_TOKENS


def max_input_tokens(messages: list[dict]) -> int:
    """Upper bound on prompt tokens: UTF-8 bytes per message + 4 framing tokens per message + 3."""
    return sum(len(m["content"].encode("utf-8")) + MESSAGE_FRAMING_TOKENS for m in messages) + REPLY_PRIMING_TOKENS
