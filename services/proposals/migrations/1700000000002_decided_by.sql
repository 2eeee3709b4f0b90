-- Up Migration
-- Who applied or declined a proposal (a user id of accounts), shown on its review page after the decision.
ALTER TABLE proposals ADD COLUMN decided_by_user_id uuid;

-- Down Migration
ALTER TABLE proposals DROP COLUMN decided_by_user_id;
