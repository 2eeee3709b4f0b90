// A small renderer of Go templates for the chart's self-contained defines (dss.component.replicated,
// dss.component.affinity, dss.component.pdb), so their output can be rendered and checked as YAML without
// Helm, and dss.grpcTarget, dss.component.grpcPeers. It knows the part of the template language those use:
// if / else if / else / with / end, trim markers, variables ($x := …), pipelines, and the functions include,
// toYaml, nindent, indent, int, eq, ne, gt, lt, and, or, not, default, quote, index, printf (%s, %v). Anything else throws, so a define that outgrows it fails loudly.
import YAML from 'yaml';
import { isMap } from './chart';

type Value = unknown;
type Node =
  | { kind: 'text'; text: string }
  | { kind: 'action'; pipeline: string }
  | { kind: 'if' | 'with'; branches: { condition: string | null; body: Node[] }[] };

export type Includes = Record<string, (context: Value) => string>;

/** Text and actions, with trim markers applied and comments removed. */
function tokenize(source: string): { text?: string; action?: string }[] {
  const tokens: { text?: string; action?: string }[] = [];
  const pattern = /\{\{(-?)\s*([\s\S]*?)\s*(-?)\}\}/g;
  let last = 0;
  let trimNext = false;
  for (let match = pattern.exec(source); match; match = pattern.exec(source)) {
    let text = source.slice(last, match.index);
    if (trimNext) text = text.replace(/^\s+/, '');
    if (match[1] === '-') text = text.replace(/\s+$/, '');
    if (text) tokens.push({ text });
    if (!match[2].startsWith('/*')) tokens.push({ action: match[2] });
    trimNext = match[3] === '-';
    last = pattern.lastIndex;
  }
  let tail = source.slice(last);
  if (trimNext) tail = tail.replace(/^\s+/, '');
  if (tail) tokens.push({ text: tail });
  return tokens;
}

function parse(tokens: { text?: string; action?: string }[]): Node[] {
  let position = 0;
  const block = (): { nodes: Node[]; stop: string } => {
    const nodes: Node[] = [];
    while (position < tokens.length) {
      const token = tokens[position++]!;
      if (token.text !== undefined) {
        nodes.push({ kind: 'text', text: token.text });
        continue;
      }
      const action = token.action!;
      const opener = /^(if|with)\s+(.+)$/s.exec(action);
      if (opener) {
        const kind = opener[1] as 'if' | 'with';
        const branches: { condition: string | null; body: Node[] }[] = [];
        let condition: string | null = opener[2]!;
        for (;;) {
          const { nodes: body, stop } = block();
          branches.push({ condition, body });
          if (stop === 'end') break;
          const elseIf = /^else\s+if\s+(.+)$/s.exec(stop);
          if (elseIf) condition = elseIf[1]!;
          else if (stop === 'else') condition = null;
          else throw new Error(`render: unexpected {{ ${stop} }}`);
        }
        nodes.push({ kind, branches });
      } else if (action === 'end' || action === 'else' || action.startsWith('else ')) {
        return { nodes, stop: action };
      } else if (/^(range|define|block|template)\b/.test(action)) {
        throw new Error(`render: {{ ${action} }} is not supported`);
      } else nodes.push({ kind: 'action', pipeline: action });
    }
    return { nodes, stop: 'eof' };
  };
  const { nodes, stop } = block();
  if (stop !== 'eof') throw new Error(`render: unbalanced {{ ${stop} }}`);
  return nodes;
}

/** Splits on a separator outside quotes and parentheses. */
function split(text: string, separator: RegExp): string[] {
  const parts: string[] = [];
  let current = '';
  let depth = 0;
  let quoted = false;
  for (const char of text) {
    if (char === '"' && current.at(-1) !== '\\') quoted = !quoted;
    if (!quoted && char === '(') depth++;
    if (!quoted && char === ')') depth--;
    if (!quoted && depth === 0 && separator.test(char)) {
      if (current.trim()) parts.push(current.trim());
      current = '';
    } else current += char;
  }
  if (current.trim()) parts.push(current.trim());
  return parts;
}

function truthy(value: Value): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (isMap(value)) return Object.keys(value).length > 0;
  return Boolean(value);
}

function field(value: Value, path: string): Value {
  let node = value;
  for (const key of path.split('.').filter(Boolean)) node = isMap(node) ? node[key] : undefined;
  return node;
}

interface Scope {
  dot: Value;
  root: Value;
  variables: Record<string, Value>;
  includes: Includes;
}

function operand(text: string, scope: Scope): Value {
  if (/^"(?:[^"\\]|\\.)*"$/.test(text)) return JSON.parse(text);
  if (/^-?\d+$/.test(text)) return Number(text);
  if (text === 'true' || text === 'false') return text === 'true';
  if (text.startsWith('(') && text.endsWith(')')) return pipeline(text.slice(1, -1), scope);
  if (text === '.') return scope.dot;
  if (text.startsWith('.')) return field(scope.dot, text.slice(1));
  if (text === '$') return scope.root;
  const variable = /^(\$[A-Za-z_]\w*)((?:\.\w+)*)$/.exec(text);
  if (variable) {
    if (!(variable[1]! in scope.variables)) throw new Error(`render: undefined variable ${variable[1]}`);
    return field(scope.variables[variable[1]!], variable[2]!);
  }
  throw new Error(`render: cannot evaluate "${text}"`);
}

const FUNCTIONS: Record<string, (scope: Scope, ...args: Value[]) => Value> = {
  include: (scope, name, context) => {
    const include = scope.includes[String(name)];
    if (!include) throw new Error(`render: no include "${String(name)}"`);
    return include(context);
  },
  toYaml: (_scope, value) => YAML.stringify(value).trimEnd(),
  nindent: (_scope, width, text) =>
    `\n${String(text)
      .split('\n')
      .map((line) => ' '.repeat(Number(width)) + line)
      .join('\n')}`,
  indent: (_scope, width, text) =>
    String(text)
      .split('\n')
      .map((line) => ' '.repeat(Number(width)) + line)
      .join('\n'),
  int: (_scope, value) => Math.trunc(Number(value ?? 0)),
  eq: (_scope, a, b) => a === b,
  ne: (_scope, a, b) => a !== b,
  gt: (_scope, a, b) => Number(a) > Number(b),
  lt: (_scope, a, b) => Number(a) < Number(b),
  not: (_scope, value) => !truthy(value),
  and: (_scope, ...values) => values.find((value) => !truthy(value)) ?? values.at(-1),
  or: (_scope, ...values) => values.find((value) => truthy(value)) ?? values.at(-1),
  default: (_scope, fallback, value) => (truthy(value) ? value : fallback),
  quote: (_scope, value) => JSON.stringify(String(value ?? '')),
  index: (_scope, map, key) => (isMap(map) ? map[String(key)] : undefined),
  printf: (_scope, format, ...args) => String(format).replace(/%[sv]/g, () => print(args.shift())),
};

function command(text: string, scope: Scope, piped: Value[]): Value {
  const [head, ...rest] = split(text, /\s/);
  const fn = FUNCTIONS[head!];
  if (fn) return fn(scope, ...rest.map((arg) => operand(arg, scope)), ...piped);
  if (rest.length > 0 || piped.length > 0) throw new Error(`render: unknown function "${head}"`);
  return operand(head!, scope);
}

function pipeline(text: string, scope: Scope): Value {
  const assignment = /^(\$[A-Za-z_]\w*)\s*:?=\s*(.+)$/s.exec(text);
  if (assignment) {
    scope.variables[assignment[1]!] = pipeline(assignment[2]!, scope);
    return undefined;
  }
  let value: Value[] = [];
  for (const part of split(text, /\|/)) value = [command(part, scope, value)];
  return value[0];
}

function print(value: Value): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string'
    ? value
    : isMap(value) || Array.isArray(value)
      ? JSON.stringify(value)
      : String(value);
}

function run(nodes: Node[], scope: Scope): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'text') out += node.text;
    else if (node.kind === 'action') out += print(pipeline(node.pipeline, scope));
    else {
      for (const branch of node.branches) {
        if (branch.condition === null) {
          out += run(branch.body, scope);
          break;
        }
        const value = pipeline(branch.condition, scope);
        if (truthy(value)) {
          out += run(branch.body, node.kind === 'with' ? { ...scope, dot: value } : scope);
          break;
        }
      }
    }
  }
  return out;
}

/** Renders a define's body with `.` (and `$`) bound to `context`; includes answer from `includes`. */
export function renderDefine(body: string, context: Value, includes: Includes): string {
  return run(parse(tokenize(body)), { dot: context, root: context, variables: {}, includes });
}
