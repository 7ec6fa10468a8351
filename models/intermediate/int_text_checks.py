def model(dbt, session):
    """Per response: JSON validity flags, detected language, sentence count (evalhouse.first_filter.text_checks)."""
    dbt.config(materialized="table")
    from evalhouse.first_filter import text_checks

    responses = dbt.ref("int_responses").df()
    return text_checks(responses)
