-- Up Migration
-- The diagram version a proposal was made on: its patch is rebased from there onto the diagram as it is
-- when read or applied. Null for proposals made before it was recorded (judged against the current version).
ALTER TABLE proposals ADD COLUMN base_version_uuid uuid;

-- Down Migration
ALTER TABLE proposals DROP COLUMN base_version_uuid;
