"""evalhouse: an LLM evaluation warehouse (dbt + DuckDB). Statistics, text checks, ratings store and CLI."""

__version__ = "0.1.0"
