// Introspection against the truth: every PostgreSQL and MySQL file of the public corpus, imported as a
// diagram, built in a fresh real database (its CREATE script: the corpus as these servers accept it —
// PostgreSQL 15 lacks the pgvector and PostgreSQL 18 features pagila uses, and dumps carry `\c`, DROP
// DATABASE and the like) and read back through a SELECT-only user: the diagram read from the catalog
// equals the imported one (tables, columns, types, nullability, keys, foreign-key pairs, indexes).
import type { DiagramDocument } from '@dss/schema';
import { createScript } from '@dss/sql';
import { corpusFiles, importCorpus } from '../../sql/test/corpus';
import { introspect } from '../src/introspect';
import { type LiveDatabase, liveMariadb, livePostgres } from './support/live-databases';

/** Functions a corpus file's defaults call that this server (PostgreSQL 15) lacks; made before loading. */
const PG_MISSING_FUNCTIONS = `CREATE OR REPLACE FUNCTION uuidv7() RETURNS uuid LANGUAGE sql AS 'SELECT gen_random_uuid()'`;

const INTEGER = /^(tinyint|smallint|mediumint|int|bigint)$/;

/**
 * The type as the server's catalog knows it. Some type names are notations for another type: MySQL stores
 * BOOLEAN as tinyint(1); MariaDB stores JSON as LONGTEXT with a json_valid CHECK; PostgreSQL's serial is an
 * integer column numbered by a sequence it owns (which is also how our export writes an imported
 * `integer DEFAULT nextval(…)` column). The catalog cannot tell which of the two the DDL wrote.
 */
const ALIASES: Record<string, Record<string, string>> = {
  mysql: { boolean: 'tinyint', json: 'longtext' },
  pgsql: { serial: 'integer', bigserial: 'bigint', smallserial: 'smallint' },
};

function catalogType(name: string, driver: string): string {
  return ALIASES[driver]?.[name] ?? name;
}

/** What the comparison covers, in a stable order. */
export function comparable(document: DiagramDocument) {
  const byName = <T extends { name: string }>(list: T[]) =>
    [...list].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    tables: byName(document.tables).map((table) => ({
      name: table.name,
      columns: table.columns.map((column) => ({
        name: column.name,
        // MySQL stores BOOLEAN as tinyint(1): the catalog cannot tell which of the two the DDL wrote.
        type: catalogType(column.driver_data_type_name, document.driver),
        // MySQL integer display widths (`bigint(20)`) are deprecated and a server shows its default one
        // whether or not it was written, so they are not compared.
        params:
          INTEGER.test(column.driver_data_type_name) && document.driver === 'mysql'
            ? null
            : column.driver_data_type_params,
        nullable: column.is_nullable,
        primary: column.is_primary_key,
        unsigned: column.is_unsigned,
      })),
      indexes: byName(table.indexes).map(
        ({ name, type, columns, method }) =>
          `${type} ${name}(${columns.join(',')})${method ? ` ${method}` : ''}`,
      ),
    })),
    foreignKeys: document.relationships
      .map((r) => `${r.source_table}.${r.source_column} -> ${r.target_table}.${r.target_column}`)
      .sort(),
  };
}

/**
 * The live diagram without the indexes MySQL adds by itself for a foreign key that has none (named as the
 * key): they exist in the database, but a diagram imported from the DDL cannot know them.
 */
function withoutImplicitIndexes(live: DiagramDocument, imported: DiagramDocument): DiagramDocument {
  if (live.driver !== 'mysql') return live;
  const keyNames = new Set(live.relationships.map((r) => `${r.source_table}\u0000${r.name}`));
  const declared = new Set(imported.tables.flatMap((t) => t.indexes.map((i) => `${t.name}\u0000${i.name}`)));
  return {
    ...live,
    tables: live.tables.map((table) => ({
      ...table,
      indexes: table.indexes.filter((index) => {
        const key = `${table.name}\u0000${index.name}`;
        return declared.has(key) || !keyNames.has(key);
      }),
    })),
  };
}

const servers: Record<string, () => Promise<LiveDatabase>> = { pgsql: livePostgres, mysql: liveMariadb };

describe('introspect: every PostgreSQL and MySQL corpus file', () => {
  it.each(corpusFiles().filter((entry) => entry.driver !== 'sqlsrv'))(
    '$file: the live catalog gives the imported diagram, through a SELECT-only user',
    async (entry) => {
      const imported = await importCorpus(entry);
      const database = await (servers[entry.driver] as () => Promise<LiveDatabase>)();
      try {
        if (entry.driver === 'pgsql') await database.run(PG_MISSING_FUNCTIONS);
        await database.run(createScript(imported).sql);
        const read = await introspect(database.url);
        expect(comparable(withoutImplicitIndexes(read.document, imported))).toEqual(comparable(imported));
        expect(JSON.stringify(read)).not.toContain(database.password);
      } finally {
        await database.drop();
      }
    },
    120_000,
  );
});
