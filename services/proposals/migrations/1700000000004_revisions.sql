-- Up Migration

-- Every patch a proposal has had, numbered from 1 (the patch sent with the proposal). `proposals.patch` and
-- `proposals.counts` stay the latest revision's, so applying applies the latest revision.
CREATE TABLE revisions (
  proposal_uuid uuid NOT NULL REFERENCES proposals (uuid) ON DELETE CASCADE,
  number integer NOT NULL CHECK (number BETWEEN 1 AND 20),
  patch jsonb NOT NULL,
  counts jsonb NOT NULL,
  message text CHECK (message IS NULL OR char_length(message) <= 500),
  author_user_id uuid NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (proposal_uuid, number)
);

INSERT INTO revisions (proposal_uuid, number, patch, counts, message, author_user_id, created_at)
  SELECT uuid, 1, patch, counts, NULL, author_user_id, created_at FROM proposals;

-- The latest revision's number, and the last request for changes (the proposal stays pending meanwhile).
ALTER TABLE proposals
  ADD COLUMN revision integer NOT NULL DEFAULT 1,
  ADD COLUMN changes_requested_at timestamptz,
  ADD COLUMN changes_requested_by uuid;

-- Down Migration

ALTER TABLE proposals DROP COLUMN revision, DROP COLUMN changes_requested_at, DROP COLUMN changes_requested_by;
DROP TABLE revisions;
