// The chart's values.yaml and every charts/dss/ci/*-values.yaml (merged over it, as Helm does) validate
// against values.schema.json; the schema file is the one deploy/scripts/write-values-schema.js writes; and
// every value in values.yaml is explained by a comment.
import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import YAML, { isMap as isYamlMap, isPair, isScalar, isSeq, type Node, type Pair } from 'yaml';
import { CHART_DIR, ciValuesFiles, coalesce, defaultValues, readYamlFile } from './support/chart';

const generator = require('../scripts/write-values-schema.js') as { render(): string; SCHEMA_FILE: string };

function compileSchema() {
  const schema = JSON.parse(fs.readFileSync(path.join(CHART_DIR, 'values.schema.json'), 'utf8'));
  return new Ajv({ allErrors: true, allowUnionTypes: true, strictRequired: false }).compile(schema);
}

describe('values.schema.json', () => {
  it('should be what deploy/scripts/write-values-schema.js writes', () => {
    expect(fs.readFileSync(generator.SCHEMA_FILE, 'utf8')).toBe(generator.render());
  });

  it('should accept values.yaml', () => {
    const validate = compileSchema();
    expect(validate(defaultValues()) ? [] : validate.errors).toEqual([]);
  });

  it.each(ciValuesFiles().map((file) => [path.basename(file), file]))(
    'should accept ci/%s merged over values.yaml',
    (_name, file) => {
      const validate = compileSchema();
      const merged = coalesce(defaultValues(), readYamlFile(file));
      expect(validate(merged) ? [] : validate.errors).toEqual([]);
    },
  );

  it('should reject a misspelt key, a bad port and an unknown probe type', () => {
    const validate = compileSchema();
    for (const override of [
      { componentDefaults: { replica: 2 } },
      { components: { gateway: { ports: { http: 'eighty' } } } },
      { components: { accounts: { probes: { liveness: { type: 'tcp' } } } } },
      { tracing: { env: { LOG_LEVEL: 'debug' } } },
    ]) {
      expect(validate(coalesce(defaultValues(), override))).toBe(false);
    }
  });
});

describe('values.yaml', () => {
  // Bitnami's habit: every value says what it is. A key counts as explained when it, its parent or its
  // grandparent carries a comment (so `resources.requests.cpu` is covered by the comment on `resources`).
  it('should explain every value with a comment', () => {
    const document = YAML.parseDocument(fs.readFileSync(path.join(CHART_DIR, 'values.yaml'), 'utf8'));
    const unexplained: string[] = [];
    const visit = (node: Node | null | undefined, trail: { key: string; commented: boolean }[]) => {
      if (!isYamlMap(node)) return;
      (node.items as Pair<Node, Node>[]).forEach((item, index) => {
        if (!isPair(item) || !isScalar(item.key)) return;
        const key = String(item.key.value);
        // The comment above a nested map's first key is kept on the map node itself.
        const commented = Boolean(
          item.key.commentBefore ||
            (item.value as Node | null)?.comment ||
            (index === 0 && node.commentBefore),
        );
        const path = [...trail, { key, commented }];
        const value = item.value as Node | null;
        const isLeaf = !isYamlMap(value) || value.flow || value.items.length === 0 || isSeq(value);
        if (isLeaf && !path.slice(-3).some((step) => step.commented))
          unexplained.push(path.map((step) => step.key).join('.'));
        if (!isLeaf) visit(value, path);
      });
    };
    visit(document.contents as Node, []);
    expect(unexplained).toEqual([]);
  });
});
