import { ddlNestingProblem, MAX_DDL_NESTING } from '../src';

describe('ddlNestingProblem', () => {
  it('should find the first parenthesis past the limit, with its line and column', () => {
    const sql = `CREATE TABLE a (id int);\nCREATE TABLE b (id int CHECK ${'('.repeat(70)}1${')'.repeat(70)});`;
    expect(ddlNestingProblem(sql)).toEqual({
      line: 2,
      column: 'CREATE TABLE b (id int CHECK '.length + MAX_DDL_NESTING,
      message: expect.stringMatching(/^nests parentheses deeper than 64 levels at line 2, column \d+/),
    });
  });

  it('should count nested block comments (PostgreSQL nests them)', () => {
    const sql = `${'/*'.repeat(65)} x ${'*/'.repeat(65)} CREATE TABLE a (id int);`;
    expect(ddlNestingProblem(sql)?.message).toMatch(/^nests block comments deeper than 64 levels/);
  });

  it('should pass real scripts, and ignore parentheses in strings, identifiers, comments and dollar quotes', () => {
    const deep = '('.repeat(100);
    const sql = [
      `CREATE TABLE "t${deep}" (id int DEFAULT ((((1)))), note text DEFAULT '${deep}''s', [x${deep}] int);`,
      `-- ${deep}`,
      `/* ${deep} */ CREATE TABLE \`u${deep}\` (id int);`,
      `CREATE FUNCTION f() RETURNS int AS $body$ SELECT ${deep} $body$ LANGUAGE sql;`,
    ].join('\n');
    expect(ddlNestingProblem(sql)).toBeNull();
    expect(ddlNestingProblem(`${'('.repeat(64)}${')'.repeat(64)}`)).toBeNull();
    // 100,000 unclosed parentheses cost one pass, not a recursion.
    expect(ddlNestingProblem('('.repeat(100_000))?.column).toBe(65);
  });
});
