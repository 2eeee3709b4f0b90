import {
  DEFAULT_LINT_CONFIG,
  type LintConfig,
  lintCounts,
  lintRuleList,
  lintSchema,
  parseLintConfig,
} from '../src/lint';
import type { LintSchema } from '../src/lint';
import { col, fk, shop, tbl } from './lint-fixtures';

const configWith = (settings: Record<string, unknown>): LintConfig => {
  const result = parseLintConfig(settings);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.config;
};
const rulesHit = (schema: LintSchema, config?: LintConfig, before?: LintSchema) =>
  lintSchema(schema, { config, before }).map((finding) => finding.rule);
const edit = (schema: LintSchema, change: (copy: LintSchema) => void): LintSchema => {
  const copy = structuredClone(schema);
  change(copy);
  return copy;
};
const table = (schema: LintSchema, name: string) => schema.tables.find((t) => t.name === name)!;
const column = (schema: LintSchema, tableName: string, name: string) =>
  table(schema, tableName).columns.find((c) => c.name === name)!;

describe('lintSchema', () => {
  it('should find nothing in a clean schema', () => {
    expect(lintSchema(shop())).toEqual([]);
  });

  describe('table-without-primary-key', () => {
    it('should report a table without a primary key, naming it', () => {
      const schema = edit(shop(), (s) => {
        column(s, 'users', 'id').is_primary_key = false;
      });
      expect(lintSchema(schema)).toContainEqual({
        rule: 'table-without-primary-key',
        severity: 'error',
        message: 'table "users" has no primary key',
        table: 'users',
      });
    });
    it('should accept a primary key given as an index record', () => {
      const schema = edit(shop(), (s) => {
        column(s, 'users', 'id').is_primary_key = false;
        table(s, 'users').indexes.push({ uuid: 'i', name: 'users_pkey', type: 'primary', columns: ['id'] });
      });
      expect(rulesHit(schema)).not.toContain('table-without-primary-key');
    });
  });

  describe('foreign-key-without-index', () => {
    const unindexed = () =>
      edit(shop(), (s) => {
        column(s, 'orders', 'user_id').is_index = false;
      });
    it('should report a foreign key whose columns lead no index', () => {
      expect(lintSchema(unindexed())).toContainEqual({
        rule: 'foreign-key-without-index',
        severity: 'warning',
        message: 'foreign key "orders" (user_id) → "users" has no index on (user_id)',
        table: 'orders',
        column: 'user_id',
      });
    });
    it('should accept a composite index that starts with the key and stay silent on MySQL', () => {
      const composite = edit(unindexed(), (s) => {
        table(s, 'orders').indexes.push({
          uuid: 'i',
          name: 'by_user',
          type: 'index',
          columns: ['user_id', 'id'],
        });
      });
      expect(rulesHit(composite)).not.toContain('foreign-key-without-index');
      expect(rulesHit({ ...unindexed(), driver: 'mysql' })).not.toContain('foreign-key-without-index');
    });
    it('should treat a composite key (one relationship per pair, one name) as one key', () => {
      const schema: LintSchema = {
        driver: 'pgsql',
        tables: [
          tbl('parents', [
            col('a', 'integer', { is_primary_key: true }),
            col('b', 'integer', { is_primary_key: true }),
          ]),
          tbl('children', [col('id', 'integer', { is_primary_key: true }), col('a'), col('b')]),
        ],
        relationships: [
          fk('children.a', 'parents.a', 'fk_parent'),
          fk('children.b', 'parents.b', 'fk_parent'),
        ],
      };
      const hits = lintSchema(schema).filter((f) => f.rule === 'foreign-key-without-index');
      expect(hits.map((f) => f.message)).toEqual([
        'foreign key "children" (a, b) → "parents" has no index on (a, b)',
      ]);
    });
  });

  describe('foreign-key-type-mismatch', () => {
    it('should report a difference in width', () => {
      const schema = edit(shop(), (s) => {
        column(s, 'orders', 'user_id').driver_data_type_name = 'bigint';
      });
      const finding = lintSchema(schema).find((f) => f.rule === 'foreign-key-type-mismatch');
      expect(finding).toMatchObject({ severity: 'error', table: 'orders', column: 'user_id' });
      expect(finding?.message).toContain('differs in width');
    });
    it('should report a difference in signedness', () => {
      const schema = edit(shop('mysql'), (s) => {
        for (const t of s.tables)
          for (const c of t.columns)
            if (c.driver_data_type_name === 'integer') c.driver_data_type_name = 'int';
        column(s, 'users', 'id').is_unsigned = true;
      });
      expect(lintSchema(schema).find((f) => f.rule === 'foreign-key-type-mismatch')?.message).toContain(
        'signedness',
      );
    });
    it('should accept an alias of the same type (int4 and integer)', () => {
      const schema = edit(shop(), (s) => {
        column(s, 'orders', 'user_id').driver_data_type_name = 'int4';
      });
      expect(rulesHit(schema)).not.toContain('foreign-key-type-mismatch');
    });
  });

  describe('nullable-foreign-key', () => {
    const nullable = () =>
      edit(shop(), (s) => {
        column(s, 'orders', 'user_id').is_nullable = true;
      });
    it('should report a nullable foreign key to a required parent', () => {
      expect(lintSchema(nullable())).toContainEqual(
        expect.objectContaining({ rule: 'nullable-foreign-key', table: 'orders', column: 'user_id' }),
      );
    });
    it('should stay silent when the parent is not among the required parents', () => {
      expect(rulesHit(nullable(), configWith({ required_parents: ['accounts'] }))).not.toContain(
        'nullable-foreign-key',
      );
      expect(rulesHit(nullable(), configWith({ required_parents: ['users'] }))).toContain(
        'nullable-foreign-key',
      );
    });
  });

  describe('naming-convention', () => {
    it('should report names that are not snake_case', () => {
      const schema = edit(shop(), (s) => {
        table(s, 'users').name = 'UserAccounts';
        column(s, 'orders', 'id').name = 'orderId';
        s.relationships = [];
      });
      const messages = lintSchema(schema)
        .filter((f) => f.rule === 'naming-convention')
        .map((f) => f.message);
      expect(messages).toEqual([
        // Sorted by table name in code-unit order: upper case first.
        'table name "UserAccounts" is not snake_case',
        'column "orders"."orderId" is not snake_case',
      ]);
    });
    it('should check singular or plural table names and the prefix', () => {
      expect(rulesHit(shop(), configWith({ naming: { tables: 'plural' } }))).not.toContain(
        'naming-convention',
      );
      const singular = lintSchema(shop(), {
        config: configWith({ naming: { tables: 'singular', prefix: 'app_' } }),
      });
      expect(singular.map((f) => f.message)).toContain(
        'table name "orders" is plural, and table names are singular',
      );
      expect(singular.map((f) => f.message)).toContain('table name "users" does not start with "app_"');
    });
    it('should judge a schema-qualified name by its own part', () => {
      const schema = edit(shop(), (s) => {
        table(s, 'users').name = 'sales.users';
        s.relationships = [];
      });
      expect(rulesHit(schema)).not.toContain('naming-convention');
    });
  });

  describe('reserved-word', () => {
    it('should report a name the driver reserves', () => {
      const schema = edit(shop(), (s) => {
        table(s, 'users').name = 'user';
        s.relationships = [];
      });
      expect(lintSchema(schema)).toContainEqual({
        rule: 'reserved-word',
        severity: 'warning',
        table: 'user',
        message: 'table name "user" is a reserved word of pgsql',
      });
    });
    it('should know each driver has its own words', () => {
      const schema = edit(shop(), (s) => {
        column(s, 'users', 'email').name = 'key';
      });
      expect(rulesHit(schema)).not.toContain('reserved-word');
      expect(rulesHit({ ...schema, driver: 'mysql' })).toContain('reserved-word');
    });
  });

  describe('too-wide-table', () => {
    it('should report more columns than max_columns', () => {
      const findings = lintSchema(shop(), { config: configWith({ max_columns: 1 }) });
      expect(findings.filter((f) => f.rule === 'too-wide-table').map((f) => f.message)).toEqual([
        'table "orders" has 2 columns, more than the 1 allowed',
        'table "users" has 2 columns, more than the 1 allowed',
      ]);
    });
    it('should accept exactly max_columns', () => {
      expect(rulesHit(shop(), configWith({ max_columns: 2 }))).not.toContain('too-wide-table');
    });
  });

  describe('destructive-change', () => {
    const destructive = (after: LintSchema) =>
      lintSchema(after, { before: shop() })
        .filter((f) => f.rule === 'destructive-change')
        .map((f) => f.message);
    it('should report drops, narrowing and NOT NULL without default', () => {
      const after = edit(shop(), (s) => {
        s.tables = s.tables.filter((t) => t.name !== 'orders');
        s.relationships = [];
        column(s, 'users', 'email').driver_data_type_params = { length: 100 };
        table(s, 'users').columns.push({
          ...column(s, 'users', 'id'),
          uuid: 'new',
          name: 'age',
          is_primary_key: false,
        });
      });
      expect(destructive(after)).toEqual([
        'table "orders" is dropped, with its data',
        'column "users"."age" is added NOT NULL without a default; existing rows make it fail',
        'column "users"."email" is narrowed; longer values would be cut or refused',
      ]);
    });
    it('should not report renames, widening or a diagram without a before', () => {
      const after = edit(shop(), (s) => {
        column(s, 'users', 'email').name = 'mail';
        column(s, 'users', 'mail').driver_data_type_params = { length: 500 };
        column(s, 'orders', 'user_id').driver_data_type_name = 'integer';
      });
      expect(destructive(after)).toEqual([]);
      expect(rulesHit(after)).not.toContain('destructive-change');
    });
    it('should report a nullable column that becomes NOT NULL without a default', () => {
      const before = edit(shop(), (s) => {
        column(s, 'users', 'email').is_nullable = true;
      });
      const findings = lintSchema(shop(), { before });
      expect(findings.map((f) => f.message)).toContain(
        'column "users"."email" becomes NOT NULL without a default; rows holding NULL make it fail',
      );
    });
  });

  describe('configured severities', () => {
    it('should turn a rule off, or raise a warning to an error', () => {
      const schema = edit(shop(), (s) => {
        column(s, 'users', 'id').is_primary_key = false;
        column(s, 'orders', 'user_id').is_index = false;
      });
      expect(rulesHit(schema, configWith({ rules: { 'table-without-primary-key': 'off' } }))).toEqual([
        'foreign-key-without-index',
      ]);
      const raised = lintSchema(schema, {
        config: configWith({ rules: { 'foreign-key-without-index': 'error' } }),
      });
      expect(lintCounts(raised)).toEqual({ errors: 2, warnings: 0 });
    });
  });
});

describe('parseLintConfig', () => {
  it('should fill what is left out with the defaults', () => {
    expect(parseLintConfig({})).toEqual({ ok: true, config: DEFAULT_LINT_CONFIG });
    expect(parseLintConfig('{"require_no_errors": true}')).toMatchObject({
      ok: true,
      config: { require_no_errors: true, max_columns: 50 },
    });
  });
  it('should refuse unknown rules, severities and settings, naming the path', () => {
    const result = parseLintConfig({
      rules: { 'no-such-rule': 'error', 'reserved-word': 'loud' },
      naming: { case: 'camel' },
      colour: 1,
    });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems.map((p) => p.path)).toEqual([
      'colour',
      'rules.no-such-rule',
      'rules.reserved-word',
      'naming.case',
    ]);
    expect(parseLintConfig('{')).toEqual({
      ok: false,
      problems: [{ path: '', message: 'is not valid JSON' }],
    });
  });
});

describe('lintRuleList', () => {
  it('should document every rule with an id, a default severity and one line', () => {
    const rules = lintRuleList();
    expect(rules.map((rule) => rule.id)).toEqual([
      'table-without-primary-key',
      'foreign-key-without-index',
      'foreign-key-type-mismatch',
      'nullable-foreign-key',
      'naming-convention',
      'reserved-word',
      'too-wide-table',
      'destructive-change',
    ]);
    for (const rule of rules) expect(rule.documentation).toMatch(/^[A-Z].+\.$/);
  });
});
