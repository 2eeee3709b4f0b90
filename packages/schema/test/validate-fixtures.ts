// A small diagram and helpers shared by the validate tests.
import type { Column, DiagramDocument, DocumentTable, Driver } from '../src/model';
import { emptyDocument } from '../src/model';
import { normalize } from '../src/normalize';
import type { ValidationMode } from '../src/patch-types';
import { type ValidationResult, validate } from '../src/validate';

let counter = 0;
function uuid(): string {
  counter++;
  return `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`;
}

export function column(name: string, type = 'int'): Column {
  return {
    uuid: uuid(),
    name,
    driver_data_type_name: type,
    driver_data_type_params: null,
    default: null,
    is_nullable: false,
    is_primary_key: false,
    is_unique_key: false,
    is_index: false,
    is_auto_increment: false,
    is_unsigned: false,
    comment: null,
  };
}

/** A table of int columns; a column named `id` is its primary key (relationships must target a key). */
export function table(name: string, columns: string[], parentUuid: string | null = null): DocumentTable {
  return {
    uuid: uuid(),
    name,
    comment: null,
    columns: columns.map((columnName) => ({ ...column(columnName), is_primary_key: columnName === 'id' })),
    indexes: [],
    left: 0,
    top: 0,
    width: 200,
    height: 100,
    color: null,
    parent_uuid: parentUuid,
  };
}

export const GROUP_UUID = '11111111-1111-4111-8111-111111111111';
export const NOTE_UUID = '22222222-2222-4222-8222-222222222222';

/** users(id, email, name) with index users_email; posts(id, user_id, title) in group "content". */
export function sampleDocument(driver: Driver = 'mysql'): DiagramDocument {
  const users = table('users', ['id', 'email', 'name']);
  users.indexes.push({ uuid: uuid(), name: 'users_email', type: 'unique', columns: ['email'] });
  const posts = table('posts', ['id', 'user_id', 'title'], GROUP_UUID);
  return {
    ...emptyDocument(driver),
    tables: [users, posts],
    groups: [
      {
        uuid: GROUP_UUID,
        name: 'content',
        color: null,
        parent_uuid: null,
        left: 0,
        top: 0,
        width: 10,
        height: 10,
      },
    ],
    sticky_notes: [
      {
        uuid: NOTE_UUID,
        content: 'hi',
        color: null,
        parent_uuid: null,
        left: 0,
        top: 0,
        width: 10,
        height: 10,
      },
    ],
    relationships: [
      {
        uuid: uuid(),
        name: null,
        type: 'many-to-one',
        source_table: 'posts',
        source_column: 'user_id',
        target_table: 'users',
        target_column: 'id',
        on_delete: null,
        on_update: null,
      },
    ],
  };
}

/** Normalises and validates in one step, as the services do. */
export function check(
  input: unknown,
  options: { mode?: ValidationMode; driver?: Driver; document?: DiagramDocument | null } = {},
): ValidationResult {
  const mode = options.mode ?? 'propose';
  const document =
    options.document !== undefined ? options.document : mode === 'create' ? null : sampleDocument();
  return validate(normalize(input).patch, document, options.driver ?? 'mysql', mode);
}

/** The problems of a failed validation (fails the test when validation passed). */
export function problemsOf(result: ValidationResult): { path: string; message: string }[] {
  if (result.ok) throw new Error('expected validation to fail, but it passed');
  return result.problems;
}

export function merge(fields: object): object {
  return { strategy: 'merge', ...fields };
}
