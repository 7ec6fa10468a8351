def model(dbt, session):
    """Per response: JSON validity flags, detected language, sentence count (evalhouse.first_filter.text_checks).

    Incremental: a response's checks depend only on its own text and raw output, so a rebuild checks only the
    responses that are new or whose content hash (md5 of text and raw output) changed. `dbt build --full-refresh`
    recomputes everything.
    """
    dbt.config(materialized="incremental", unique_key="response_id", incremental_strategy="delete+insert")
    from evalhouse.first_filter import text_checks

    responses = dbt.ref("int_first_filter_responses")
    hashed = (
        "select r.*, md5(coalesce(r.response_text, '') || chr(31) || coalesce(r.raw_output, chr(30))) "
        f"as content_hash from ({responses.sql_query()}) as r"
    )
    if dbt.is_incremental:
        query = (
            f"select h.* from ({hashed}) as h left join {dbt.this} as t "
            "on t.response_id = h.response_id and t.content_hash = h.content_hash where t.response_id is null"
        )
    else:
        query = hashed
    todo = session.sql(query).df()
    out = text_checks(todo)
    out["content_hash"] = todo["content_hash"].astype("string").values
    return out
