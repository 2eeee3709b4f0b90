// CHECK constraints through the patch engine: accepted by the contract, added, replaced by name and
// deleted, shown in the diff and the Markdown, and refused when the condition would not stay one expression.
import {
  apply,
  type DiagramDocument,
  diff,
  documentToPatch,
  emptyDocument,
  normalize,
  renderMarkdown,
  validate,
} from '../src';

function patched(document: DiagramDocument, patch: unknown): DiagramDocument {
  const result = validate(normalize(patch).patch, document, document.driver, 'propose');
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return apply(document, result.patch).document;
}

const base = patched(emptyDocument('pgsql'), {
  strategy: 'merge',
  tables: [
    {
      name: 'product',
      columns: [
        { name: 'id', type: 'integer', is_primary_key: true },
        { name: 'price', type: 'numeric(10,2)' },
      ],
      checks: [{ name: 'product_price_check', expression: 'price >= 0' }],
    },
  ],
});

describe('CHECK constraints in the schema model', () => {
  it('should keep the checks a patch creates a table with', () => {
    expect(base.tables[0]?.checks).toEqual([{ name: 'product_price_check', expression: 'price >= 0' }]);
  });

  it('should replace the condition of a check of the same name and append a new one (merge)', () => {
    const next = patched(base, {
      strategy: 'merge',
      tables: [
        {
          name: 'product',
          checks: [
            { name: 'product_price_check', expression: 'price > 0' },
            { name: 'product_id_check', expression: 'id > 0' },
          ],
        },
      ],
    });
    expect(next.tables[0]?.checks).toEqual([
      { name: 'product_price_check', expression: 'price > 0' },
      { name: 'product_id_check', expression: 'id > 0' },
    ]);
    expect(base.tables[0]?.checks).toHaveLength(1);
  });

  it('should only add checks of new names with strategy additive', () => {
    const next = patched(base, {
      strategy: 'additive',
      tables: [
        {
          name: 'product',
          checks: [
            { name: 'product_price_check', expression: 'price > 100' },
            { name: 'product_id_check', expression: 'id > 0' },
          ],
        },
      ],
    });
    expect(next.tables[0]?.checks?.map((check) => check.expression)).toEqual(['price >= 0', 'id > 0']);
  });

  it('should delete a check named in deletions.indexes, and refuse a name the table lacks', () => {
    const next = patched(base, {
      strategy: 'merge',
      deletions: { indexes: { product: ['product_price_check'] } },
    });
    expect(next.tables[0]?.checks).toEqual([]);
    const missing = validate(
      normalize({ strategy: 'merge', deletions: { indexes: { product: ['nope'] } } }).patch,
      base,
      'pgsql',
      'propose',
    );
    expect(missing.ok).toBe(false);
  });

  it.each([
    ['price >= 0; DROP TABLE product', 'semicolon'],
    ['price >= 0) OR (1 = 1', 'closing parenthesis'],
    ['(price >= 0', 'not closed'],
    ["price <> 'x", 'not closed'],
    ['price >= 0 -- cut', 'comment'],
  ])('should refuse the condition %s at its path', (expression, reason) => {
    const result = validate(
      normalize({ strategy: 'merge', tables: [{ name: 'product', checks: [{ name: 'c', expression }] }] })
        .patch,
      base,
      'pgsql',
      'propose',
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([
      { path: 'tables[0].checks[0].expression', message: expect.stringContaining(reason) },
    ]);
  });

  it('should accept parentheses, semicolons and dashes inside quoted strings and names', () => {
    const next = patched(base, {
      strategy: 'merge',
      tables: [
        {
          name: 'product',
          checks: [{ name: 'c', expression: `price <> 0 OR "id" IN (1, 2) OR ';)--' <> ''` }],
        },
      ],
    });
    expect(next.tables[0]?.checks?.[1]?.name).toBe('c');
  });

  it('should show a changed condition in the diff and an unchanged document as no change', () => {
    const next = patched(base, {
      strategy: 'merge',
      tables: [{ name: 'product', checks: [{ name: 'product_price_check', expression: 'price > 0' }] }],
    });
    expect(diff(base, next).tables.changed[0]?.changes).toEqual([
      {
        field: 'checks',
        before: [{ name: 'product_price_check', expression: 'price >= 0' }],
        after: [{ name: 'product_price_check', expression: 'price > 0' }],
      },
    ]);
    const withoutChecks = structuredClone(base);
    delete withoutChecks.tables[0]?.checks;
    const emptied = structuredClone(base);
    if (emptied.tables[0]) emptied.tables[0].checks = [];
    expect(diff(withoutChecks, emptied).tables.changed).toEqual([]);
  });

  it('should list the checks in the Markdown and in the patch a document is written back as', () => {
    expect(renderMarkdown(base)).toContain('Checks:\n- product_price_check: price \\>= 0\n');
    expect(documentToPatch(base).tables[0]?.checks).toEqual([
      { name: 'product_price_check', expression: 'price >= 0' },
    ]);
  });
});
