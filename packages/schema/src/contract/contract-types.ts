// The vocabulary of the patch contract document (schema-patch-contract.json). It reads like JSON Schema
// (`type`, `description`, `enum`, `properties`, `items`, `minimum`) but `required` is a boolean on each
// field and the document adds keywords of its own, each of which the normaliser or the validator obeys.

export const CONTRACT_TYPES = ['string', 'integer', 'boolean', 'array', 'object'] as const;
export type ContractType = (typeof CONTRACT_TYPES)[number];

/** An alternative key rewritten to `becomes`; `inverted` negates a boolean (`is_not_null`). */
export interface ContractAlias {
  becomes: string;
  inverted: boolean;
}

/** `{"users": ["a", "b"]}` is rewritten to `[{"<key>": "users", "<values>": ["a", "b"]}]`. */
export interface ContractShorthand {
  key: string;
  values: string;
}

/** A value the contract describes: an array's items, or (with `required`) a field. */
export interface ContractValue {
  type: ContractType;
  description: string;
  enum?: string[];
  /** Smallest integer allowed. */
  minimum?: number;
  /** Shortest string allowed, after trimming. */
  min_length?: number;
  /** Fewest array entries allowed. */
  min_items?: number;
  /** Whitespace around the value is removed (names). */
  trim?: boolean;
  items?: ContractValue;
  properties?: { [key: string]: ContractField };
  aliases?: { [key: string]: ContractAlias };
  /** Array entries with the same value of this field are merged, later fields winning. */
  merge_entries_by?: string;
  object_shorthand?: ContractShorthand;
  /** `forbidden`: refused when creating a diagram (canvas positions and sizes). */
  create?: 'forbidden';
  /** Value used when the field is absent. */
  default?: boolean | number | string;
}

export interface ContractField extends ContractValue {
  required: boolean;
}

export interface ContractDocument extends ContractField {
  title: string;
  contract_version: number;
  tolerance_rules: string[];
  /** Named example patches. */
  examples: { [name: string]: unknown };
}
