-- Each lease of a delivery gets an id, and the sender's outcome applies only under the lease it was sent
-- under. A manual redelivery clears the id: an attempt still in flight then counts as an attempt, but no
-- longer marks the delivery succeeded or schedules its retry, so the redelivery asked for is kept. A lease
-- that ran out and was taken again is protected the same way.
ALTER TABLE notifications.deliveries ADD COLUMN lease_id uuid;
