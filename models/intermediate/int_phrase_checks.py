def model(dbt, session):
    """Per response x required/forbidden phrase: plain, normalised and negation-aware search results."""
    dbt.config(materialized="table")
    from evalhouse.first_filter import phrase_checks

    responses = dbt.ref("int_first_filter_responses").df()
    gold = dbt.ref("int_gold").df()
    return phrase_checks(responses, gold)
