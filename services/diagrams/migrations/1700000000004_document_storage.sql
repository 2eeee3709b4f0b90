-- Up Migration

-- The stored document and its representations are large (a 135-table import writes about 2.4MB across
-- them, and each version keeps the document again). Two changes make writing them cheaper; an import's
-- completion spent more time here than anywhere but the parse:
--
-- 1. The document is kept as JSON text instead of jsonb. The service writes it with JSON.stringify and only
--    ever reads it whole to parse it itself; no query looks inside it. jsonb made PostgreSQL parse 770KB on
--    every write (about 5 ms) and print it back on every read. Existing values are converted in place.
-- 2. lz4 compression for these columns, where the server offers it (PostgreSQL 14 and later built with
--    lz4, as Debian's and most distributions' packages are): it compresses the same values in less than
--    half the time of the default pglz. Elsewhere the columns keep the server's default; values already
--    stored keep their compression until they are rewritten.
ALTER TABLE diagram_contents ALTER COLUMN document TYPE text USING document::text;
ALTER TABLE diagram_versions ALTER COLUMN document TYPE text USING document::text;

DO $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)
  ) THEN
    ALTER TABLE diagram_contents
      ALTER COLUMN document SET COMPRESSION lz4,
      ALTER COLUMN schema_json SET COMPRESSION lz4,
      ALTER COLUMN markdown_detailed SET COMPRESSION lz4,
      ALTER COLUMN markdown_simple SET COMPRESSION lz4,
      ALTER COLUMN full_document_json SET COMPRESSION lz4;
    ALTER TABLE diagram_versions ALTER COLUMN document SET COMPRESSION lz4;
  END IF;
END
$$;

-- Down Migration
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression') THEN
    ALTER TABLE diagram_contents
      ALTER COLUMN document SET COMPRESSION default,
      ALTER COLUMN schema_json SET COMPRESSION default,
      ALTER COLUMN markdown_detailed SET COMPRESSION default,
      ALTER COLUMN markdown_simple SET COMPRESSION default,
      ALTER COLUMN full_document_json SET COMPRESSION default;
    ALTER TABLE diagram_versions ALTER COLUMN document SET COMPRESSION default;
  END IF;
END
$$;
ALTER TABLE diagram_versions ALTER COLUMN document TYPE jsonb USING document::jsonb;
ALTER TABLE diagram_contents ALTER COLUMN document TYPE jsonb USING document::jsonb;
