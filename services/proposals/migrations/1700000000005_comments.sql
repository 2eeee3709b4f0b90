-- Up Migration

-- The review conversation. A thread is its first comment (`reply_to` NULL) and the replies that name it;
-- only a first comment carries an anchor and the thread's resolution. `revision` is the revision that was
-- the latest when the comment was written, so a comment stays attached to what it was about.
CREATE TABLE comments (
  id uuid PRIMARY KEY,
  proposal_uuid uuid NOT NULL REFERENCES proposals (uuid) ON DELETE CASCADE,
  revision integer NOT NULL,
  reply_to uuid REFERENCES comments (id) ON DELETE CASCADE,
  anchor_table text,
  anchor_column text,
  body text NOT NULL CHECK (char_length(body) BETWEEN 1 AND 4000),
  author_user_id uuid NOT NULL,
  author_kind text NOT NULL CHECK (author_kind IN ('person', 'token')),
  kind text NOT NULL CHECK (kind IN ('comment', 'changes_requested')),
  created_at timestamptz NOT NULL,
  resolved_at timestamptz,
  resolved_by uuid,
  CHECK (anchor_column IS NULL OR anchor_table IS NOT NULL),
  CHECK (reply_to IS NULL OR (anchor_table IS NULL AND resolved_at IS NULL))
);

CREATE INDEX comments_proposal ON comments (proposal_uuid, created_at, id);
CREATE INDEX comments_thread ON comments (reply_to) WHERE reply_to IS NOT NULL;

-- Down Migration

DROP TABLE comments;
