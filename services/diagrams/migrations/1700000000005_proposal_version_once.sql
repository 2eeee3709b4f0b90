-- Up Migration

-- A proposal is applied to a diagram at most once: ApplyPatch answers a retry with this version.
CREATE UNIQUE INDEX diagram_versions_proposal_source ON diagram_versions (diagram_uuid, source_id)
  WHERE source_kind = 'proposal';

-- Down Migration
DROP INDEX diagram_versions_proposal_source;
