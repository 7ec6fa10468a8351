def model(dbt, session):
    """Per response x required/forbidden phrase: plain, normalised and negation-aware search results.

    The search is DuckDB SQL over the normalised texts of int_text_checks (whole words, constant patterns); only
    forbidden phrases found in a text that holds a negation cue go through the Python negation check.
    """
    dbt.config(materialized="table")
    from evalhouse.text.first_filter import phrase_checks

    return phrase_checks(session, dbt.ref("int_first_filter_responses").sql_query(),
                         dbt.ref("int_gold").sql_query(), dbt.ref("int_text_checks").sql_query())
