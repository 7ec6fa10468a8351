"""Project linters beyond ruff and sqlfluff (sql_portability: `make lint-sql`)."""
