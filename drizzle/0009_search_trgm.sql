-- Participant search (contract §4): a trigram index over everything a search term may match in a
-- person (legal first and last name, the full name, preferred name, email; lower-cased). The
-- search query adds `<this expression> LIKE '%term%'` as a necessary condition of its five LIKEs,
-- so the planner reads candidates from this index instead of scanning every person.
-- pg_trgm is a trusted extension (PostgreSQL ≥ 13: the database owner may create it); the embedded
-- database loads it from @electric-sql/pglite/contrib/pg_trgm.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "people_search_trgm" ON "people" USING gin (
  lower("legal_first_name" || ' ' || "legal_last_name" || ' ' || COALESCE("preferred_name", '') || ' ' || "email") gin_trgm_ops
);
