// A seeded generator of an application schema shaped like real ones (for the layout benchmark): modules
// whose tables share a name prefix and reference each other, a few hub tables (`users`, `accounts`,
// `organizations`) that most modules reference, and some references across modules. Returns a schema
// patch without positions, so applying it lays the tables out as an import does today.
import { apply, type DiagramDocument, emptyDocument, normalize, validate } from '@dss/schema';
import { SeededRandom } from '@dss/schema/dist/generated/random';

const MODULES = [
  'billing',
  'catalog',
  'orders',
  'shipping',
  'inventory',
  'support',
  'content',
  'forum',
  'wiki',
  'auth',
  'audit',
  'reports',
  'crm',
  'hr',
  'payroll',
  'projects',
  'tasks',
  'calendar',
  'chat',
  'files',
  'search',
  'ads',
  'analytics',
  'notifications',
  'integrations',
  'surveys',
  'events',
  'media',
  'geo',
  'tax',
];
const NOUNS = [
  'items',
  'entries',
  'logs',
  'settings',
  'links',
  'notes',
  'versions',
  'states',
  'rules',
  'tags',
  'members',
  'requests',
  'records',
  'batches',
  'lines',
  'periods',
  'templates',
  'assignments',
  'votes',
  'flags',
];
const HUBS = ['users', 'accounts', 'organizations'];
const COLUMN_WORDS = [
  'name',
  'title',
  'status',
  'description',
  'amount',
  'position',
  'created_at',
  'updated_at',
];
const TYPES = ['varchar(255)', 'text', 'integer', 'numeric(12,2)', 'timestamp', 'boolean'];

export interface GeneratedShape {
  tables: number;
  relationships: number;
  seed?: number;
}

interface GeneratedTable {
  name: string;
  columns: { name: string; type: string; is_primary_key?: boolean; is_nullable?: boolean }[];
}

/** A patch of `tables` tables (hubs first) and exactly `relationships` foreign keys. */
export function generateSchemaPatch(shape: GeneratedShape) {
  const random = new SeededRandom(shape.seed ?? 7);
  const tables: GeneratedTable[] = HUBS.map((name) => ({ name, columns: [idColumn()] }));
  const modules: string[][] = [];
  const perModule = Math.ceil((shape.tables - HUBS.length) / MODULES.length);
  for (const module of MODULES) {
    const names: string[] = [];
    for (let at = 0; at < perModule && tables.length < shape.tables; at++) {
      const name = `${module}_${NOUNS[at % NOUNS.length]}${at >= NOUNS.length ? `_${at}` : ''}`;
      names.push(name);
      tables.push({ name, columns: [idColumn(), ...someColumns(random)] });
    }
    if (names.length > 0) modules.push(names);
  }
  const relationships: object[] = [];
  const seen = new Set<string>();
  const link = (source: GeneratedTable, target: string) => {
    const column = `${target.replace(/s$/, '')}_id`;
    const key = `${source.name}.${column}`;
    if (seen.has(key) || source.name === target) return false;
    seen.add(key);
    source.columns.push({ name: column, type: 'bigint', is_nullable: random.chance(0.3) });
    relationships.push({
      source_table: source.name,
      source_column: column,
      target_table: target,
      target_column: 'id',
      type: 'many-to-one',
    });
    return true;
  };
  const byName = new Map(tables.map((table) => [table.name, table]));
  // Most links stay in their module (a tree plus a few extra), a third go to a hub, a few cross modules.
  let guard = 0;
  while (relationships.length < shape.relationships && guard++ < shape.relationships * 50) {
    const module = random.pick(modules);
    const at = random.integer(module.length);
    const source = byName.get(module[at] as string) as GeneratedTable;
    const roll = random.next();
    if (roll < 0.55 && at > 0) link(source, module[random.integer(at)] as string);
    else if (roll < 0.88) link(source, HUBS[random.next() < 0.6 ? 0 : random.integer(HUBS.length)] as string);
    else link(source, random.pick(random.pick(modules)));
  }
  return { strategy: 'merge', tables, relationships };
}

function idColumn() {
  return { name: 'id', type: 'bigint', is_primary_key: true, is_nullable: false };
}

function someColumns(random: SeededRandom) {
  const count = 2 + random.integer(6);
  const columns = [];
  for (let at = 0; at < count; at++)
    columns.push({
      name: `${COLUMN_WORDS[at % COLUMN_WORDS.length]}${at >= COLUMN_WORDS.length ? at : ''}`,
      type: random.pick(TYPES),
    });
  return columns;
}

/**
 * The generated schema as a diagram, imported as an import lays it out (applying a patch without
 * positions): what the layout benchmark and the large-schema tests measure.
 */
export function generatedDiagram(shape: GeneratedShape): DiagramDocument {
  const base = emptyDocument('pgsql');
  const checked = validate(normalize(generateSchemaPatch(shape)).patch, base, 'pgsql', 'propose');
  if (!checked.ok)
    throw new Error(`the generated schema is invalid: ${JSON.stringify(checked.problems.slice(0, 3))}`);
  return apply(base, checked.patch).document;
}

/** The document with its tables in a seeded random order (a linear congruential source; Fisher–Yates). */
export function inSeededOrder(document: DiagramDocument, seed: number): DiagramDocument {
  let state = seed;
  const next = () => {
    state = (state * 1664525 + 1013904223) % 4294967296;
    return state / 4294967296;
  };
  const tables = [...document.tables];
  for (let at = tables.length - 1; at > 0; at--) {
    const other = Math.floor(next() * (at + 1));
    [tables[at], tables[other]] = [tables[other]!, tables[at]!];
  }
  return { ...document, tables };
}
