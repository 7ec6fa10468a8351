def model(dbt, session):
    """Per response x required/forbidden phrase: plain, normalised and negation-aware search results.

    The search is DuckDB SQL over the normalised texts of int_text_checks (whole words, constant patterns); only
    forbidden phrases found in a text that holds a negation cue go through the Python negation check.

    Incremental: a response's rows depend only on its reply text (int_text_checks.content_hash), its item's phrases
    and the search code (phrase_set_hash), so a rebuild searches only the responses whose key is new or changed,
    replaces their rows, and deletes the rows of responses that no longer have any (removed, without text, without
    phrase) (evalhouse.text.first_filter.phrase_checks). `dbt build --full-refresh` recomputes everything.
    """
    dbt.config(materialized="incremental", unique_key="response_id", incremental_strategy="delete+insert",
               on_schema_change="fail")
    from evalhouse.text.first_filter import phrase_checks

    return phrase_checks(session, dbt.ref("int_first_filter_responses").sql_query(),
                         dbt.ref("int_gold").sql_query(), dbt.ref("int_text_checks").sql_query(),
                         str(dbt.this) if dbt.is_incremental else None)
