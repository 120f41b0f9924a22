-- Participant search in stages (issue 32 item 2): the exact and prefix matches (ranks 0-2 of the
-- search's ranking) are read from B-tree indexes first; the trigram index (0009_search_trgm) is
-- read only when they give fewer than 20 matches. text_pattern_ops lets `LIKE 'term%'` use an
-- index whatever the database's collation; equality uses it too.
CREATE INDEX IF NOT EXISTS "people_first_name_prefix" ON "people" (lower("legal_first_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "people_last_name_prefix" ON "people" (lower("legal_last_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "people_preferred_name_prefix" ON "people" (lower("preferred_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "people_email_prefix" ON "people" (lower("email") text_pattern_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "people_full_name_exact" ON "people" (lower("legal_first_name" || ' ' || "legal_last_name") text_pattern_ops);
