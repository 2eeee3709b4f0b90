import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CONTRACT_TYPES,
  type ContractNode,
  contractDocument,
  contractText,
  patchContract,
} from '../src/contract';
import { INDEX_TYPES, RELATIONSHIP_TYPES } from '../src/model';
import { normalize } from '../src/normalize';
import { STRATEGIES } from '../src/patch-types';
import { validate } from '../src/validate';
import { GROUP_UUID, NOTE_UUID, sampleDocument, table } from './validate-fixtures';

const CONTRACT_FILE = join(__dirname, '../src/contract/schema-patch-contract.json');

/** A patch that sets every field of the contract to a valid value, against `kitchenSinkDocument`. */
function kitchenSinkPatch() {
  const frame = { left: 1, top: 2, width: 300, height: 400 };
  return {
    strategy: 'merge',
    tables: [
      {
        name: 'people',
        old_name: 'users',
        comment: 'Everyone',
        parent_name: 'content',
        parent_uuid: GROUP_UUID,
        columns: [
          {
            name: 'mail',
            old_name: 'email',
            type: 'varchar',
            length: 100,
            is_primary_key: false,
            is_auto_increment: false,
            is_nullable: true,
            is_unique_key: true,
            is_index: false,
            is_unsigned: false,
            default: 'nobody@example.com',
            enum_values: undefined,
            comment: 'Where to write',
            collation: 'utf8mb4_bin',
          },
          { name: 'status', type: 'enum', enum_values: ['active', 'blocked'], enum_name: 'people_status' },
        ],
        indexes: [
          { name: 'people_mail', type: 'unique', columns: ['mail'] },
          { name: 'people_status_idx', type: 'index', columns: ['status'], method: 'hash', note: 'lookups' },
        ],
        checks: [{ name: 'people_mail_check', expression: "mail <> ''" }],
        charset: 'utf8mb4',
        collation: 'utf8mb4_unicode_ci',
        ...frame,
      },
    ],
    groups: [{ name: 'archive 2', ...frame }],
    relationships: [
      {
        type: 'one-to-many',
        source_table: 'people',
        source_column: 'id',
        target_table: 'posts',
        target_column: 'user_id',
      },
    ],
    sticky_notes: [{ content: 'Note', parent_name: 'content', parent_uuid: GROUP_UUID, ...frame }],
    deletions: {
      tables: ['old_table'],
      columns: [{ table: 'posts', columns: ['title'] }],
      indexes: [{ table: 'users', indexes: ['users_email'] }],
      relationships: [
        { source_table: 'posts', source_column: 'user_id', target_table: 'users', target_column: 'id' },
      ],
      groups: [{ name: 'archive', delete_children: false }],
      sticky_notes: [NOTE_UUID],
    },
  };
}

function kitchenSinkDocument() {
  const document = sampleDocument('mysql');
  document.tables.push(table('old_table', ['id']));
  document.groups.push({
    ...document.groups[0]!,
    uuid: '33333333-3333-4333-8333-333333333333',
    name: 'archive',
  });
  return document;
}

type Segment = string | number;
interface FieldVisit {
  segments: Segment[];
  contractPath: string;
  node: ContractNode;
}

/** Every value of the patch the contract describes, with the contract node describing it. */
function visitFields(
  node: ContractNode,
  value: unknown,
  segments: Segment[],
  contractPath: string,
  out: FieldVisit[],
) {
  if (Array.isArray(value) && node.items !== null) {
    value.forEach((item, index) => {
      const itemSegments = [...segments, index];
      if (node.items!.spec.type !== 'object')
        out.push({ segments: itemSegments, contractPath: `${contractPath}[]`, node: node.items! });
      visitFields(node.items!, item, itemSegments, contractPath, out);
    });
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  for (const [key, child] of node.properties) {
    const fieldValue = (value as Record<string, unknown>)[key];
    if (fieldValue === undefined) continue;
    const childPath = contractPath === '' ? key : `${contractPath}.${key}`;
    out.push({ segments: [...segments, key], contractPath: childPath, node: child });
    visitFields(child, fieldValue, [...segments, key], childPath, out);
  }
}

function contractPaths(node: ContractNode, prefix: string, out: Set<string>): Set<string> {
  const described = node.items ?? node;
  if (node.items !== null && node.items.spec.type !== 'object') out.add(`${prefix}[]`);
  for (const [key, child] of described.properties) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    out.add(path);
    contractPaths(child, path, out);
  }
  return out;
}

function pathText(segments: Segment[]): string {
  return segments.reduce<string>(
    (text, segment) =>
      typeof segment === 'number' ? `${text}[${segment}]` : text === '' ? segment : `${text}.${segment}`,
    '',
  );
}

function withValue(segments: Segment[], value: unknown): unknown {
  const patch = kitchenSinkPatch() as unknown as Record<Segment, unknown>;
  let parent = patch;
  for (const segment of segments.slice(0, -1)) parent = parent[segment] as Record<Segment, unknown>;
  const last = segments.at(-1)!;
  if (value === undefined) delete parent[last];
  else parent[last] = value;
  return patch;
}

function check(patch: unknown) {
  return validate(normalize(patch).patch, kitchenSinkDocument(), 'mysql', 'propose');
}

const WRONG_VALUES: Record<string, unknown> = {
  string: 123,
  integer: 'many',
  boolean: 'maybe',
  array: 'x',
  object: 'x',
};

const visits: FieldVisit[] = [];
visitFields(patchContract, kitchenSinkPatch(), [], '', visits);

describe('patch contract', () => {
  it('is committed byte for byte as contractText (the text GET /schema-patch-contract serves)', () => {
    expect(readFileSync(CONTRACT_FILE, 'utf8')).toBe(contractText);
  });

  it('looks like a JSON Schema but is not one: required is a per-field boolean and examples an object', () => {
    const walk = (node: ContractNode, isField: boolean) => {
      expect(CONTRACT_TYPES).toContain(node.spec.type);
      expect(node.spec.description.length).toBeGreaterThan(3);
      if (isField) expect(typeof (node.spec as { required?: unknown }).required).toBe('boolean');
      if (node.spec.enum !== undefined) expect(node.spec.type).toBe('string');
      expect(node.items !== null).toBe(node.spec.type === 'array');
      if (node.properties.size > 0) expect(node.spec.type).toBe('object');
      if (node.items) walk(node.items, false);
      for (const child of node.properties.values()) walk(child, true);
    };
    walk(patchContract, true);
    expect(Array.isArray(contractDocument.examples)).toBe(false);
    expect(typeof contractDocument.examples).toBe('object');
  });

  it("documents every section and field of the spec's patch format", () => {
    const paths = contractPaths(patchContract, '', new Set());
    const specFields = [
      'strategy',
      'tables.name',
      'tables.old_name',
      'tables.comment',
      'tables.parent_name',
      'tables.parent_uuid',
      'tables.left',
      'tables.top',
      ...['name', 'old_name', 'type', 'length', 'is_primary_key', 'is_auto_increment', 'is_nullable'].map(
        (f) => `tables.columns.${f}`,
      ),
      ...['is_unique_key', 'is_index', 'is_unsigned', 'default', 'enum_values'].map(
        (f) => `tables.columns.${f}`,
      ),
      'tables.indexes.name',
      'tables.indexes.type',
      'tables.indexes.columns',
      ...['type', 'source_table', 'source_column', 'target_table', 'target_column'].map(
        (f) => `relationships.${f}`,
      ),
      'groups.name',
      'sticky_notes.content',
      'sticky_notes.parent_name',
      'sticky_notes.parent_uuid',
      'deletions.tables',
      'deletions.columns.table',
      'deletions.columns.columns',
      'deletions.indexes.table',
      'deletions.indexes.indexes',
      'deletions.relationships.source_table',
      'deletions.groups.name',
      'deletions.groups.delete_children',
      'deletions.sticky_notes',
    ];
    for (const field of specFields) expect([field, paths.has(field)]).toEqual([field, true]);
    expect([
      ...patchContract.properties.get('tables')!.items!.properties.get('columns')!.items!.aliases,
    ]).toEqual([
      ['is_primary', { becomes: 'is_primary_key', inverted: false }],
      ['is_not_null', { becomes: 'is_nullable', inverted: true }],
      ['is_unique', { becomes: 'is_unique_key', inverted: false }],
    ]);
  });

  it('uses the same enums as the model types', () => {
    const enumAt = (...keys: string[]) => {
      let node = patchContract;
      for (const key of keys) node = (node.items ?? node).properties.get(key)!;
      return node.spec.enum;
    };
    expect(enumAt('strategy')).toEqual([...STRATEGIES]);
    expect(enumAt('tables', 'indexes', 'type')).toEqual([...INDEX_TYPES]);
    expect(enumAt('relationships', 'type')).toEqual([...RELATIONSHIP_TYPES]);
  });

  describe('normalize and validate accept and reject exactly what it says', () => {
    it('accepts a patch that sets every field of the contract to a valid value', () => {
      const result = check(kitchenSinkPatch());
      expect(result).toMatchObject({ ok: true });
      expect(new Set(visits.map((visit) => visit.contractPath))).toEqual(
        contractPaths(patchContract, '', new Set()),
      );
    });

    it.each(visits.map((visit) => [pathText(visit.segments), visit] as const))(
      'reports a wrong type at %s',
      (path, visit) => {
        const result = check(withValue(visit.segments, WRONG_VALUES[visit.node.spec.type]));
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.problems.map((problem) => problem.path)).toContain(path);
      },
    );

    it.each(
      visits
        .filter((visit) => visit.node.spec.enum)
        .map((visit) => [pathText(visit.segments), visit] as const),
    )('reports a value outside the enum at %s', (path, visit) => {
      const result = check(withValue(visit.segments, 'bogus'));
      expect(!result.ok && result.problems.map((problem) => problem.path)).toContain(path);
    });

    it.each(
      visits
        .filter((visit) => visit.node.required)
        .map((visit) => [pathText(visit.segments), visit] as const),
    )('reports the required field %s when it is missing', (path, visit) => {
      const result = check(withValue(visit.segments, undefined));
      const expected = { path, message: expect.stringMatching(/^is required/) };
      expect(!result.ok && result.problems).toContainEqual(expected);
    });

    it.each(
      visits
        .filter((visit) => visit.node.spec.type === 'boolean' || visit.node.spec.type === 'integer')
        .map((visit) => [pathText(visit.segments), visit] as const),
    )('coerces a string value at %s', (_path, visit) => {
      const valid = visit.segments.reduce<unknown>(
        (value, segment) => (value as Record<Segment, unknown>)[segment],
        kitchenSinkPatch(),
      );
      expect(check(withValue(visit.segments, String(valid)))).toEqual(check(kitchenSinkPatch()));
    });

    it.each(
      [{ segments: [] as Segment[] }, ...visits.filter((visit) => visit.node.spec.type === 'object')].map(
        (visit) => [pathText(visit.segments), visit.segments] as const,
      ),
    )('strips an unknown key at %j with a warning naming the path and the key', (path, segments) => {
      const patch = kitchenSinkPatch() as unknown as Record<Segment, unknown>;
      let target = patch;
      for (const segment of segments) target = target[segment] as Record<Segment, unknown>;
      target.surprise = 1;
      const { patch: normalized, warnings } = normalize(patch);
      expect(warnings).toEqual([expect.objectContaining({ code: 'unknown_key', path, key: 'surprise' })]);
      expect(JSON.stringify(normalized)).toBe(JSON.stringify(normalize(kitchenSinkPatch()).patch));
    });
  });

  it('validates each of its own examples against the mysql driver', () => {
    // The diagram the create_tables example makes, which the other examples change.
    const created = sampleDocument('mysql');
    created.tables = [
      table('users', ['id', 'email', 'status']),
      table('posts', ['id', 'user_id', 'title'], GROUP_UUID),
    ];
    created.tables[1]!.indexes.push({
      uuid: NOTE_UUID,
      name: 'posts_user_title',
      type: 'index',
      columns: ['user_id', 'title'],
    });
    for (const [name, example] of Object.entries(contractDocument.examples)) {
      const creates = name === 'create_tables';
      const result = validate(
        normalize(example).patch,
        creates ? null : created,
        'mysql',
        creates ? 'create' : 'propose',
      );
      expect([name, result]).toEqual([name, expect.objectContaining({ ok: true })]);
    }
  });
});
