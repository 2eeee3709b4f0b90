// Names and types that make generated diagrams look like real ones (and cost what real ones cost).
import type { DataTypeParams } from '../model';

export const ENTITY_WORDS = [
  'account',
  'address',
  'audit_log',
  'invoice',
  'invoice_line',
  'order',
  'order_item',
  'payment',
  'product',
  'product_variant',
  'category',
  'shipment',
  'warehouse',
  'supplier',
  'employee',
  'customer',
  'subscription',
  'plan',
  'coupon',
  'review',
  'session',
  'tag',
  'team',
  'project',
  'task',
  'comment',
  'attachment',
  'event',
] as const;

export const COLUMN_WORDS = [
  'name',
  'title',
  'email',
  'status',
  'amount',
  'currency',
  'description',
  'quantity',
  'price',
  'total',
  'notes',
  'starts_at',
  'ends_at',
  'is_active',
  'external_ref',
  'country_code',
  'phone',
  'slug',
  'position',
  'weight',
  'rating',
  'locale',
  'source',
  'kind',
  'score',
  'metadata',
  'version',
  'archived_at',
] as const;

export interface GeneratedType {
  /** The type as a patch writes it. */
  raw: string;
  enumValues?: string[];
  /** The type as the catalog resolves it. */
  name: string;
  params: DataTypeParams | null;
}

export const COLUMN_TYPES: readonly GeneratedType[] = [
  { raw: 'varchar(255)', name: 'varchar', params: { length: 255 } },
  { raw: 'varchar(64)', name: 'varchar', params: { length: 64 } },
  { raw: 'int', name: 'int', params: null },
  { raw: 'bigint', name: 'bigint', params: null },
  { raw: 'decimal(10,2)', name: 'decimal', params: { precision: 10, scale: 2 } },
  { raw: 'datetime', name: 'datetime', params: null },
  { raw: 'date', name: 'date', params: null },
  { raw: 'text', name: 'text', params: null },
  { raw: 'json', name: 'json', params: null },
  { raw: 'boolean', name: 'boolean', params: null },
  {
    raw: 'enum',
    enumValues: ['draft', 'active', 'archived'],
    name: 'enum',
    params: { values: ['draft', 'active', 'archived'] },
  },
];

export const ID_TYPE: GeneratedType = { raw: 'bigint', name: 'bigint', params: null };

export const COMMENTS = [
  'Set by the billing job',
  'Shown to customers',
  'ISO 4217 code',
  'Null until the first login',
  'Soft delete marker',
] as const;
