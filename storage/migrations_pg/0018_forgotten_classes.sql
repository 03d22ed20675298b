-- PostgreSQL's twin of storage/migrations/0018_forgotten_classes.sql: the lessons' deletions
-- (a class, a pupil of a class, a lesson) are remembered as fingerprints too.
ALTER TABLE forgotten DROP CONSTRAINT forgotten_kind_check;

ALTER TABLE forgotten ADD CONSTRAINT forgotten_kind_check
    CHECK (kind IN ('user', 'member', 'guild', 'class', 'pupil', 'lesson'));
