-- GSM8K has no rubric (grounding only): empty, with the shared columns.
select cast(null as varchar) as suite, cast(null as varchar) as rubric_id, cast(null as integer) as rubric_version,
       cast(null as date) as effective_from, cast(null as varchar) as changed_criteria, cast(null as varchar) as change_note
where false
