{#- larkfield_lesson_ratings_unchanged(): true while the course team's Larkfield ratings are the bundled ones (the
    suite's ratings.csv and the two lesson files of the ratings store). The lesson's singular tests
    (tests/larkfield/) pin the figures those ratings give; a later rating or --correction by course_team changes the
    figures on purpose, and the tests then check nothing rather than fail the build. -#}
{% macro larkfield_lesson_ratings_unchanged() -%}
not exists (
    select 1
    from {{ ref('fct_ratings') }} as course_team_ratings
    where course_team_ratings.suite = 'larkfield'
      and course_team_ratings.rater_id = 'course_team'
      and course_team_ratings.source_file not in (
          'suites/larkfield/ratings.csv',
          'data/ratings/larkfield/20260105T000000Z_course_team_lesson_figure.csv',
          'data/ratings/larkfield/20260202T000000Z_course_team_v2_code_fence_rescore.csv'
      )
)
{%- endmacro %}
