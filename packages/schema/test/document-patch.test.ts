import { apply } from '../src/apply';
import { documentToPatch, writtenType } from '../src/document-patch';
import { type DiagramDocument, emptyDocument } from '../src/model';
import { normalize } from '../src/normalize';
import { toSchema } from '../src/project';
import { validate } from '../src/validate';
import { column, documentOf, group, note, relationship, shopDocument, table } from './apply-fixtures';

/** The schema with record UUIDs replaced, so two documents made apart can be compared. */
function withoutUuids(document: DiagramDocument) {
  return JSON.parse(JSON.stringify(toSchema(document), (key, value) => (key === 'uuid' ? undefined : value)));
}

/** Applies the written patch to an empty diagram, as a create would. */
function recreate(document: DiagramDocument, mode: 'create' | 'propose' = 'create'): DiagramDocument {
  const patch = documentToPatch(document, { positions: mode === 'propose' });
  const validated = validate(normalize(patch).patch, null, document.driver, mode);
  if (!validated.ok) throw new Error(JSON.stringify(validated.problems));
  return apply(emptyDocument(document.driver), validated.patch).document;
}

describe('documentToPatch()', () => {
  describe('round trip through validate and apply', () => {
    it('should re-create the shop schema: columns, flags, indexes and relationships', () => {
      const document = shopDocument();
      expect(withoutUuids(recreate(document))).toEqual(withoutUuids(document));
    });

    it('should keep MySQL types with lengths, scales, enum values, unsigned, defaults and comments', () => {
      const document = documentOf({
        driver: 'mysql',
        tables: [
          table('items', [
            column('id', { driver_data_type_name: 'int', is_primary_key: true, is_unsigned: true }),
            column('name', {
              driver_data_type_name: 'varchar',
              driver_data_type_params: { length: 120 },
              is_nullable: true,
              comment: 'shown to buyers',
            }),
            column('price', {
              driver_data_type_name: 'decimal',
              driver_data_type_params: { precision: 10, scale: 2 },
              default: '0.00',
            }),
            column('state', {
              driver_data_type_name: 'enum',
              driver_data_type_params: { values: ['new', "it's"] },
            }),
          ]),
        ],
      });
      expect(withoutUuids(recreate(document))).toEqual(withoutUuids(document));
    });

    it('should keep PostgreSQL arrays, interval fields and time precision', () => {
      const document = documentOf({
        driver: 'pgsql',
        tables: [
          table('events', [
            column('id', { driver_data_type_name: 'bigint', is_primary_key: true }),
            column('tags', { driver_data_type_name: 'text', driver_data_type_params: { array: true } }),
            column('span', {
              driver_data_type_name: 'interval',
              driver_data_type_params: { fields: 'day to second' },
            }),
            column('at', { driver_data_type_name: 'timestamp', driver_data_type_params: { precision: 3 } }),
          ]),
        ],
      });
      expect(withoutUuids(recreate(document))).toEqual(withoutUuids(document));
    });

    it("should keep SQL Server's (max) length", () => {
      const document = documentOf({
        driver: 'sqlsrv',
        tables: [
          table('notes', [
            column('id', { driver_data_type_name: 'int', is_primary_key: true }),
            column('body', { driver_data_type_name: 'nvarchar', driver_data_type_params: { length: 'max' } }),
          ]),
        ],
      });
      expect(withoutUuids(recreate(document))).toEqual(withoutUuids(document));
    });

    it('should keep groups, membership, sticky notes and, for proposals, positions', () => {
      const document = documentOf({
        groups: [group('billing', { uuid: 'grp-billing', left: 10, top: 20, width: 500, height: 300 })],
        tables: [
          table('invoices', [column('id', { is_primary_key: true })], {
            parent_uuid: 'grp-billing',
            left: 40,
            top: 60,
          }),
        ],
        sticky_notes: [note('note-1', 'Ask finance', { parent_uuid: 'grp-billing' })],
      });
      const recreated = recreate(document, 'propose');
      expect(recreated.groups.map((g) => g.name)).toEqual(['billing']);
      const billing = recreated.groups[0]!.uuid;
      expect(recreated.tables[0]).toMatchObject({
        name: 'invoices',
        parent_uuid: billing,
        left: 40,
        top: 60,
      });
      expect(recreated.sticky_notes[0]).toMatchObject({ content: 'Ask finance', parent_uuid: billing });
    });
  });

  describe('what it writes', () => {
    it('should leave positions out unless asked, so a create accepts the patch', () => {
      const patch = documentToPatch(shopDocument());
      expect(patch.tables.every((t) => t.left === undefined && t.top === undefined)).toBe(true);
      expect(validate(normalize(patch).patch, null, 'mysql', 'create').ok).toBe(true);
    });

    it('should write relationships by names only, without uuids or referential actions', () => {
      const document = documentOf({
        tables: shopDocument().tables,
        relationships: [
          relationship('orders.user_id', 'users.id', { name: 'fk_orders_users', on_delete: 'cascade' }),
        ],
      });
      expect(documentToPatch(document).relationships).toEqual([
        {
          type: 'many-to-one',
          source_table: 'orders',
          source_column: 'user_id',
          target_table: 'users',
          target_column: 'id',
        },
      ]);
    });
  });

  describe('writtenType()', () => {
    it.each([
      ['varchar', { length: 255 }, 'varchar(255)'],
      ['decimal', { precision: 10, scale: 2 }, 'decimal(10,2)'],
      ['interval', { fields: 'year to month' }, 'interval year to month'],
      ['integer', { array: true }, 'integer[]'],
      ['nvarchar', { length: 'max' as const }, 'nvarchar(max)'],
      ['enum', { values: ['a'] }, 'enum'],
      ['int', null, 'int'],
    ])('should write %s with %j as %s', (name, params, expected) => {
      expect(writtenType(name, params)).toBe(expected);
    });
  });
});
