-- The raw bytes of the decisions source file(s) 'protocol' (one row per file: filename, content), parsed by an
-- int_decisions__ Python model (evalhouse.decisions.ingest) with exact Decimals.
select filename, content from {{ read_source('decisions', 'protocol') }}
