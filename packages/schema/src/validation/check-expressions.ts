// CHECK conditions of a patch. The condition is SQL text written into every export and migration inside
// `CHECK (…)`, so it must stay one expression there: parentheses balanced and no `;` or comment outside
// a quoted string or name. What the expression means is the server's to judge.
import type { ProblemList } from './problem-list';
import type { Located, ShapedTable } from './shaped-types';

/** Why `expression` could not stay inside `CHECK (…)`, or null when it can. */
export function checkExpressionProblem(expression: string): string | null {
  let depth = 0;
  for (let i = 0; i < expression.length; i++) {
    const c = expression[i] as string;
    if (c === "'" || c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      let j = i + 1;
      while (j < expression.length && !(expression[j] === close && expression[j + 1] !== close))
        j += expression[j] === close || expression[j] === '\\' ? 2 : 1;
      if (j >= expression.length) return `a quoted part opened with ${c} is not closed`;
      i = j;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return 'a closing parenthesis has no opening one';
    else if (c === ';') return 'a semicolon would end the statement';
    else if ((c === '-' && expression[i + 1] === '-') || (c === '/' && expression[i + 1] === '*'))
      return 'a comment would hide the rest of the statement';
  }
  return depth === 0 ? null : 'a parenthesis is not closed';
}

export function checkCheckExpressions(tables: readonly Located<ShapedTable>[], problems: ProblemList): void {
  for (const { entry, path } of tables)
    for (const [position, check] of (entry.checks ?? []).entries()) {
      const problem = checkExpressionProblem(check.expression);
      if (problem !== null)
        problems.add(`${path}.checks[${position}].expression`, `CHECK ${check.name}: ${problem}`);
    }
}
