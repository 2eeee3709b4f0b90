-- Up Migration

-- The stored document and its representations are large text (a 135-table import writes about 2.4MB
-- across them, and a version copies the document). PostgreSQL's default pglz compression made writing
-- them the slowest step of an import after the parse; lz4 compresses the same values in less than half
-- the time. Only servers built with lz4 (PostgreSQL 14 and later, as packaged by Debian and others)
-- offer it; elsewhere the columns keep the server's default. Values already stored keep their
-- compression until they are rewritten.
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
