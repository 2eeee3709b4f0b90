// Narrow, checked access to parser output (plain JSON objects whose shape the parsers document but whose
// typings are loose or absent): every read says what it expects and gets undefined otherwise.
export type Ast = Record<string, unknown>;

export function isAst(value: unknown): value is Ast {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function obj(node: unknown, key: string): Ast | undefined {
  if (!isAst(node)) return undefined;
  const value = node[key];
  return isAst(value) ? value : undefined;
}

export function arr(node: unknown, key: string): Ast[] {
  if (!isAst(node)) return [];
  const value = node[key];
  return Array.isArray(value) ? value.filter(isAst) : [];
}

export function raw(node: unknown, key: string): unknown {
  return isAst(node) ? node[key] : undefined;
}

export function str(node: unknown, key: string): string | undefined {
  const value = raw(node, key);
  return typeof value === 'string' ? value : undefined;
}

export function num(node: unknown, key: string): number | undefined {
  const value = raw(node, key);
  return typeof value === 'number' ? value : undefined;
}

/** The single key of a one-key wrapper object (`{CreateStmt: {…}}`) and its value. */
export function tagged(node: unknown): [string, Ast] | undefined {
  if (!isAst(node)) return undefined;
  const keys = Object.keys(node);
  if (keys.length !== 1) return undefined;
  const key = keys[0] as string;
  const value = node[key];
  return isAst(value) ? [key, value] : undefined;
}
