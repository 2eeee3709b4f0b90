-- Webhook signing secrets are stored encrypted (AES-256-GCM, src/secret-keys.ts): `secret` and
-- `previous_secret` hold base64 ciphertext and these columns the id of the key that encrypted each. Rows
-- written before this migration hold plain text with a NULL key id; the service encrypts them at start,
-- right after this migration (the key is the service's configuration, which the migration runner does not
-- have), and re-encrypts secrets under a key that is no longer the current one.
ALTER TABLE notifications.endpoints
  ADD COLUMN secret_key_id text,
  ADD COLUMN previous_secret_key_id text;
