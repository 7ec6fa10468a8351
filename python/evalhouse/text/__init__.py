"""Text checks of the first filter: the one-text reference functions (``checks``), the same over Arrow arrays
(``batch``) and the dbt Python models' functions (``first_filter``)."""
