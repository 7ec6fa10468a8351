-- One row per GRADE pack (pack.csv of every pack folder, source grade.packs).
select
    pack_id,
    title,
    pack_version,
    try_cast(synthetic as boolean)  as is_synthetic,
    entity_id_regex,
    source,
    filename                        as source_file
from (
    select cast(`pack_id` as string) as `pack_id`, cast(`title` as string) as `title`, cast(`pack_version` as string) as `pack_version`, cast(`synthetic` as string) as `synthetic`, cast(`entity_id_regex` as string) as `entity_id_regex`, cast(`source` as string) as `source`,
      'data/grade/packs/edu_example/pack.csv' as filename
    from evalhouse.evalhouse_src_4f08af7f31996048693632592786e14c_1
    
)