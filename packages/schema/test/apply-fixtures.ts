// Builders for the tests of apply, diff, layout, Markdown and hashes: small documents and typed patches.
import type { Column, DiagramDocument, DocumentTable, Group, Relationship, StickyNote } from '../src/model';
import type { Patch, PatchColumn, PatchTable } from '../src/patch-types';

/** Deterministic UUID source: `prefix-1`, `prefix-2`, … */
export function sequentialUuids(prefix = 'new'): () => string {
  let next = 0;
  return () => `${prefix}-${++next}`;
}

export function column(name: string, fields: Partial<Column> = {}): Column {
  return {
    uuid: `col-${name}`,
    name,
    driver_data_type_name: 'int',
    driver_data_type_params: null,
    default: null,
    is_nullable: false,
    is_primary_key: false,
    is_unique_key: false,
    is_index: false,
    is_auto_increment: false,
    is_unsigned: false,
    comment: null,
    ...fields,
  };
}

export function table(name: string, columns: Column[], fields: Partial<DocumentTable> = {}): DocumentTable {
  return {
    uuid: `tbl-${name}`,
    name,
    comment: null,
    columns: columns.map((c) => ({ ...c, uuid: `${name}.${c.name}` })),
    indexes: [],
    left: 0,
    top: 0,
    width: 200,
    height: 120,
    color: null,
    parent_uuid: null,
    ...fields,
  };
}

export function relationship(
  source: string,
  target: string,
  fields: Partial<Relationship> = {},
): Relationship {
  const [source_table, source_column] = source.split('.') as [string, string];
  const [target_table, target_column] = target.split('.') as [string, string];
  return {
    uuid: `rel-${source}-${target}`,
    name: null,
    type: 'many-to-one',
    source_table,
    source_column,
    target_table,
    target_column,
    on_delete: null,
    on_update: null,
    ...fields,
  };
}

export function group(name: string, fields: Partial<Group> = {}): Group {
  return {
    uuid: `grp-${name}`,
    name,
    color: null,
    parent_uuid: null,
    left: 0,
    top: 0,
    width: 600,
    height: 400,
    ...fields,
  };
}

export function note(uuid: string, content: string, fields: Partial<StickyNote> = {}): StickyNote {
  return {
    uuid,
    content,
    color: null,
    parent_uuid: null,
    left: 0,
    top: 0,
    width: 240,
    height: 160,
    ...fields,
  };
}

export function documentOf(parts: Partial<DiagramDocument> = {}): DiagramDocument {
  return {
    driver: 'mysql',
    schema_version: 1,
    tables: [],
    relationships: [],
    groups: [],
    sticky_notes: [],
    ...parts,
  };
}

/** users(id, email) and orders(id, user_id → users.id), placed side by side. */
export function shopDocument(): DiagramDocument {
  return documentOf({
    tables: [
      table('users', [column('id', { is_primary_key: true, is_auto_increment: true }), column('email')], {
        indexes: [
          { uuid: 'idx-users-pk', name: 'PRIMARY', type: 'primary', columns: ['id'] },
          { uuid: 'idx-users-email', name: 'users_email_unique', type: 'unique', columns: ['email'] },
        ],
      }),
      table('orders', [column('id', { is_primary_key: true }), column('user_id')], {
        left: 400,
        indexes: [{ uuid: 'idx-orders-user', name: 'orders_user_id', type: 'index', columns: ['user_id'] }],
      }),
    ],
    relationships: [relationship('orders.user_id', 'users.id')],
  });
}

export function patchOf(
  parts: Partial<Omit<Patch, 'deletions'>> & { deletions?: Partial<Patch['deletions']> },
): Patch {
  return {
    strategy: parts.strategy ?? 'merge',
    tables: parts.tables ?? [],
    groups: parts.groups ?? [],
    relationships: parts.relationships ?? [],
    sticky_notes: parts.sticky_notes ?? [],
    deletions: {
      tables: [],
      columns: [],
      indexes: [],
      relationships: [],
      groups: [],
      sticky_notes: [],
      ...parts.deletions,
    },
  };
}

/** A patch column whose type resolves to itself (`varchar(255)` → varchar, length 255). */
export function patchColumn(name: string, type = 'int', fields: Partial<PatchColumn> = {}): PatchColumn {
  const match = /^(\w+)(?:\((\d+)\))?$/.exec(type)!;
  const params = match[2] === undefined ? null : { length: Number(match[2]) };
  return { name, type, data_type: { name: match[1]!, params }, ...fields };
}

export function patchTable(name: string, fields: Partial<PatchTable> = {}): PatchTable {
  return { name, columns: [], indexes: [], ...fields };
}

export function tableNamed(document: DiagramDocument, name: string): DocumentTable {
  const found = document.tables.find((t) => t.name === name);
  if (found === undefined) throw new Error(`no table ${name}`);
  return found;
}

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}
