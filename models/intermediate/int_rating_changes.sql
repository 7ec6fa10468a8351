-- The (source_file, suite, response_id) groups the incremental rating chain must recompute: those whose rows
-- (int_rating_groups.content_hash) or other inputs (inputs_fingerprint) differ from the state the whole chain was
-- last built with (_rating_chain_state, saved by the on-run-end hook save_rating_chain_state), added or removed
-- groups included; every group when there is no state yet. Groups of a run that did not complete stay listed (read
-- from this table before it is replaced) until a run completes the chain; the hook then empties it.
{%- set state = rating_chain_state_relation() %}
{%- set pending = adapter.get_relation(database=this.database, schema=this.schema, identifier=this.identifier) %}
with current_groups as (
    select * from {{ ref('int_rating_groups') }}
),

previous_groups as (
    {%- if state is not none %}
    select source_file, suite, response_id, content_hash, inputs_fingerprint from {{ state }}
    {%- else %}
    select * from current_groups where 1 = 0
    {%- endif %}
),

differing as (
    select
        coalesce(current_groups.source_file, previous_groups.source_file) as source_file,
        case when current_groups.source_file is null then previous_groups.suite else current_groups.suite end
            as suite,
        case when current_groups.source_file is null then previous_groups.response_id
             else current_groups.response_id end as response_id
    from current_groups
    full outer join previous_groups
        on previous_groups.source_file = current_groups.source_file
       and previous_groups.suite is not distinct from current_groups.suite
       and previous_groups.response_id is not distinct from current_groups.response_id
    where current_groups.content_hash is distinct from previous_groups.content_hash
       or current_groups.inputs_fingerprint is distinct from previous_groups.inputs_fingerprint
)

-- (pending groups are read only beside a state: without one every group is recomputed anyway, and a pending table
-- from before the suite column would not have it)
select distinct source_file, suite, response_id
from (
    select source_file, suite, response_id from differing
    {%- if pending is not none and state is not none %}
    union all
    select source_file, suite, response_id from {{ pending }}
    {%- endif %}
) as changed
