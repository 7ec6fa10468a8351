-- Blind keys written by `evalhouse blind-export`: which response hides behind each packet letter.
select * from evalhouse.base_ratings_store__blind_keys