// The review diff names every attribute a reviewer decides on, for a new column as for a changed one.
import { apply, emptyDocument, normalize, validate, diff } from '@dss/schema';
import { readPastedPatch } from '../src/routes/diagram';
import { diffView } from '../src/views/diff';

function documentOf(patch: object) {
  const result = validate(normalize(patch).patch, emptyDocument('mysql'), 'mysql', 'propose');
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return apply(emptyDocument('mysql'), result.patch).document;
}

describe('the review diff', () => {
  it('shows a new column with its type, length, unsigned, nullability, key, auto-increment, unique, index and default', () => {
    const before = documentOf({
      strategy: 'merge',
      tables: [{ name: 't', columns: [{ name: 'id', type: 'int' }] }],
    });
    const afterPatch = {
      strategy: 'merge',
      tables: [
        {
          name: 't',
          columns: [
            { name: 'id', type: 'int' },
            {
              name: 'n',
              type: 'int',
              is_unsigned: true,
              is_nullable: false,
              is_auto_increment: true,
              is_unique_key: true,
            },
            { name: 's', type: 'varchar(20)', default: 'new', is_index: true },
          ],
        },
      ],
    };
    const result = validate(normalize(afterPatch).patch, before, 'mysql', 'propose');
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const after = apply(before, result.patch).document;
    const text = diffView(diff(before, after)).toString();
    expect(text).toContain('int unsigned not null · auto-increment · unique');
    expect(text).toContain('varchar(20) · indexed · default new');
  });
});

describe('the paste-back box reading a patch', () => {
  it('refuses NUL characters and unpaired surrogates as the API does', () => {
    expect(readPastedPatch('{"strategy":"merge","tables":[{"name":"a\\u0000"}]}')).toEqual({
      ok: false,
      message: expect.stringMatching(/NUL/),
    });
    expect(readPastedPatch('{"strategy":"merge","tables":[{"name":"a\\ud800"}]}')).toEqual({
      ok: false,
      message: expect.stringMatching(/surrogate/),
    });
    expect(readPastedPatch('{"strategy":"merge","tables":[{"name":"ok 😀"}]}')).toMatchObject({ ok: true });
  });
});
