-- Up Migration

-- The diagram version each revision was made on: a revision is checked against the diagram as it is when
-- sent, so `proposals.base_version_uuid` is the latest revision's and the rebase starts from there. Revisions
-- written before this column existed take their proposal's base if they are its latest, else stay unknown
-- (null: judged against the current version, as proposals made before bases were recorded are).
ALTER TABLE revisions ADD COLUMN base_version_uuid uuid;

UPDATE revisions r SET base_version_uuid = p.base_version_uuid
  FROM proposals p
 WHERE p.uuid = r.proposal_uuid AND p.revision = r.number;

-- Down Migration

ALTER TABLE revisions DROP COLUMN base_version_uuid;
