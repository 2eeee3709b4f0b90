// The patch contract: the committed JSON document (served byte for byte by GET /schema-patch-contract) and
// the same document compiled into lookup tables for the normaliser and the validator, so the keys, types,
// enums and tolerance rules they apply are the ones the document publishes.
import contractJson from './schema-patch-contract.json';
import type { ContractAlias, ContractDocument, ContractField, ContractValue } from './contract-types';

// The JSON's inferred type widens literals (`type: string`); its shape is checked by the contract tests.
export const contractDocument: Readonly<ContractDocument> = contractJson as unknown as ContractDocument;

/** The exact text of schema-patch-contract.json (a golden test holds the committed file to it). */
export const contractText: string = `${JSON.stringify(contractDocument, null, 2)}\n`;

/** A contract value with its properties and aliases in Maps, so user-supplied keys never reach a prototype. */
export interface ContractNode {
  readonly spec: ContractValue;
  readonly required: boolean;
  readonly enumValues: ReadonlySet<string> | null;
  readonly items: ContractNode | null;
  readonly properties: ReadonlyMap<string, ContractNode>;
  /** The same properties as an array, in contract order, for hot loops. */
  readonly propertyList: readonly { readonly key: string; readonly node: ContractNode }[];
  /** How many of the properties are required. */
  readonly requiredCount: number;
  readonly aliases: ReadonlyMap<string, ContractAlias>;
}

function compile(spec: ContractValue): ContractNode {
  const properties = new Map<string, ContractNode>();
  for (const [key, field] of Object.entries(spec.properties ?? {})) properties.set(key, compile(field));
  return {
    spec,
    required: (spec as Partial<ContractField>).required === true,
    enumValues: spec.enum === undefined ? null : new Set(spec.enum),
    items: spec.items === undefined ? null : compile(spec.items),
    properties,
    propertyList: [...properties].map(([key, node]) => ({ key, node })),
    requiredCount: [...properties.values()].filter((node) => node.required).length,
    aliases: new Map(Object.entries(spec.aliases ?? {})),
  };
}

/** The root of the compiled contract: the patch object. */
export const patchContract: ContractNode = compile(contractDocument);

/** The compiled node at a dotted path of property names (array items are stepped through): `tables.columns`. */
export function contractNodeAt(path: string): ContractNode {
  let node = patchContract;
  for (const key of path.split('.')) {
    const child = (node.items ?? node).properties.get(key);
    if (child === undefined) throw new Error(`the patch contract has no field ${path}`);
    node = child;
  }
  return node;
}
