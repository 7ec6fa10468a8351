"""Suites declared as folders: the contract (``contract``), ``suite check`` (``check``), landing for dbt (``land``)
and ``suite init`` (``scaffold``). See suites/README.md."""
