"""Importers of other tools' logs into suite folders (one module per tool)."""
