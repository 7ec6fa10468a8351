-- HANNA responses report no labels: an empty model keeps the shared data model complete.
select cast(null as varchar) as suite, cast(null as varchar) as response_id,
       cast(null as varchar) as label_name, cast(null as varchar) as label_value
where false
