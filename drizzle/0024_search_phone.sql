-- Participant search by a phone fragment (issue 32 item 2): callers who may see phones also match
-- an all-digit term (4+ digits) inside the stored E.164 number, `replace(phone, '+', '') LIKE
-- '%digits%'` (participants.repo.ts searchMatch). Without an index that condition read every
-- person (a numeric id searched 17x slower than the floor at 20,000 registrations); with this one
-- it is a trigram lookup beside people_search_trgm. The expression must stay identical to the query's.
CREATE INDEX IF NOT EXISTS "people_phone_trgm" ON "people" USING gin (replace("phone", '+', '') gin_trgm_ops);
