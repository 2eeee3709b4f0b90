// Generates a realistic diagram: tables with an id, foreign keys to earlier tables, typed columns with
// some comments and defaults, indexes, relationships, groups of 100 tables and a few sticky notes.
// Used by the benchmarks and tests, and by the web app's drawing thread to warm up (so it is not under bench/,
// which the image leaves out).
import type { Column, DiagramDocument, DocumentTable, Group, Index, Relationship } from '../model';
import { SCHEMA_VERSION } from '../model';
import { estimateTableSize } from '../table-size';
import { SeededRandom } from './random';
import { COLUMN_TYPES, COLUMN_WORDS, COMMENTS, ENTITY_WORDS, ID_TYPE } from './vocabulary';

export interface DiagramShape {
  tables: number;
  columnsPerTable: number;
  seed?: number;
}

const TABLES_PER_ROW = 25;
const CELL_WIDTH = 360;
const CELL_HEIGHT = 640;
const TABLES_PER_GROUP = 100;

export function generateDiagram(shape: DiagramShape): DiagramDocument {
  const random = new SeededRandom(shape.seed ?? 1);
  const tables: DocumentTable[] = [];
  const relationships: Relationship[] = [];
  const groups: Group[] = [];
  for (let i = 0; i < shape.tables; i++) {
    if (i % TABLES_PER_GROUP === 0)
      groups.push(groupFor(i, Math.min(TABLES_PER_GROUP, shape.tables - i), random));
    const table = generateTable(i, tables, shape.columnsPerTable, random, relationships);
    table.parent_uuid = groups.at(-1)!.uuid;
    tables.push(table);
  }
  const sticky_notes = groups.slice(0, 5).map((group, n) => ({
    uuid: random.uuid(),
    content: `Owned by team ${n + 1}`,
    color: '#fde68a',
    parent_uuid: group.uuid,
    left: group.left + group.width + 40,
    top: group.top,
    width: 240,
    height: 160,
  }));
  return { driver: 'mysql', schema_version: SCHEMA_VERSION, tables, relationships, groups, sticky_notes };
}

export function tableName(position: number): string {
  return `${ENTITY_WORDS[position % ENTITY_WORDS.length]}_${Math.floor(position / ENTITY_WORDS.length)}`;
}

function generateTable(
  position: number,
  earlier: readonly DocumentTable[],
  columnCount: number,
  random: SeededRandom,
  relationships: Relationship[],
): DocumentTable {
  const name = tableName(position);
  const columns: Column[] = [idColumn(random)];
  const indexes: Index[] = [{ uuid: random.uuid(), name: 'PRIMARY', type: 'primary', columns: ['id'] }];
  const foreignKeys = earlier.length === 0 ? 0 : Math.min(2, columnCount - 1);
  for (let k = 0; k < foreignKeys; k++) {
    const target = earlier[random.integer(earlier.length)]!;
    const column = foreignKeyColumn(`${target.name}_id_${k}`, random);
    columns.push(column);
    indexes.push({
      uuid: random.uuid(),
      name: `idx_${name}_${column.name}`,
      type: 'index',
      columns: [column.name],
    });
    relationships.push(relationshipFor(name, column.name, target.name, random));
  }
  for (let c = columns.length; c < columnCount; c++) columns.push(plainColumn(c, random));
  const size = estimateTableSize({ name, columns });
  return {
    uuid: random.uuid(),
    name,
    comment: random.chance(0.3) ? random.pick(COMMENTS) : null,
    columns,
    indexes,
    left: (position % TABLES_PER_ROW) * CELL_WIDTH,
    top: Math.floor(position / TABLES_PER_ROW) * CELL_HEIGHT,
    ...size,
    color: random.chance(0.2) ? '#93c5fd' : null,
    parent_uuid: null,
  };
}

function baseColumn(name: string, random: SeededRandom): Column {
  return {
    uuid: random.uuid(),
    name,
    driver_data_type_name: ID_TYPE.name,
    driver_data_type_params: null,
    default: null,
    is_nullable: false,
    is_primary_key: false,
    is_unique_key: false,
    is_index: false,
    is_auto_increment: false,
    is_unsigned: true,
    comment: null,
  };
}

function idColumn(random: SeededRandom): Column {
  return { ...baseColumn('id', random), is_primary_key: true, is_auto_increment: true };
}

function foreignKeyColumn(name: string, random: SeededRandom): Column {
  return { ...baseColumn(name, random), is_index: true };
}

export function plainColumnName(position: number): string {
  const word = COLUMN_WORDS[position % COLUMN_WORDS.length]!;
  return position < COLUMN_WORDS.length ? word : `${word}_${Math.floor(position / COLUMN_WORDS.length)}`;
}

function plainColumn(position: number, random: SeededRandom): Column {
  const type = random.pick(COLUMN_TYPES);
  return {
    ...baseColumn(plainColumnName(position), random),
    driver_data_type_name: type.name,
    driver_data_type_params: type.params === null ? null : structuredClone(type.params),
    default: random.chance(0.1) ? "'0'" : null,
    is_nullable: random.chance(0.5),
    is_unsigned: false,
    comment: random.chance(0.2) ? random.pick(COMMENTS) : null,
  };
}

function relationshipFor(source: string, column: string, target: string, random: SeededRandom): Relationship {
  return {
    uuid: random.uuid(),
    name: `fk_${source}_${column}`,
    type: random.chance(0.1) ? 'one-to-one' : 'many-to-one',
    source_table: source,
    source_column: column,
    target_table: target,
    target_column: 'id',
    on_delete: random.chance(0.3) ? 'cascade' : null,
    on_update: null,
  };
}

function groupFor(first: number, count: number, random: SeededRandom): Group {
  const rows = Math.ceil(count / TABLES_PER_ROW);
  return {
    uuid: random.uuid(),
    name: `Domain ${first / TABLES_PER_GROUP + 1}`,
    color: null,
    parent_uuid: null,
    left: -24,
    top: Math.floor(first / TABLES_PER_ROW) * CELL_HEIGHT - 48,
    width: TABLES_PER_ROW * CELL_WIDTH + 24,
    height: (rows - 1) * CELL_HEIGHT + 600,
  };
}
