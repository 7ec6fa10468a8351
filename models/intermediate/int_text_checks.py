def model(dbt, session):
    """Per response: detected language, sentence count, length and normalised text (evalhouse.text.first_filter).

    Incremental: a response's checks depend only on its reply text, so a rebuild checks only the responses that
    are new or whose content hash (md5 of the checks version and the text) changed, and deletes the rows of removed
    responses; each distinct text is checked once, in Arrow batches. `dbt build --full-refresh` recomputes everything.
    """
    dbt.config(materialized="incremental", unique_key="response_id", incremental_strategy="delete+insert",
               on_schema_change="fail")
    from evalhouse.text.first_filter import text_checks

    responses = dbt.ref("int_first_filter_responses")
    return text_checks(session, responses.sql_query(), str(dbt.this) if dbt.is_incremental else None)
