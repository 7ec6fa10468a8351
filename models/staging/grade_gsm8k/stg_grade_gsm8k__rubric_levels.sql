-- GSM8K has no rubric (grounding only): empty, with the shared columns.
select cast(null as varchar) as suite, cast(null as varchar) as rubric_id, cast(null as integer) as rubric_version,
       cast(null as varchar) as criterion, cast(null as integer) as criterion_order, cast(null as integer) as min_score,
       cast(null as integer) as max_score, cast(null as integer) as level, cast(null as varchar) as anchor
where false
