// Types of chart-env.js (plain JavaScript so that scripts run it without a build).
export type Values = Record<string, unknown>;

export interface EnvEntry {
  name: string;
  /** The helper's line it came from, for messages. */
  source: string;
  value?: string;
  /** Read from the credentials Secret under this key. */
  secretKey?: string;
  optional?: boolean;
}

export function isMap(value: unknown): value is Record<string, unknown>;
export function coalesce(base: unknown, override: unknown): unknown;
export function mergeInto(
  base: Record<string, unknown>,
  over: Record<string, unknown>,
): Record<string, unknown>;
export function chartValues(files?: string[]): Values;
export function componentSettings(values: Values): Record<string, Record<string, unknown>>;
export function envHelper(): string;
export function componentEnv(
  helper: string,
  scope: {
    c: Record<string, unknown>;
    name: string;
    values: Values;
    include?: (template: string, componentName: string | undefined) => string;
  },
): EnvEntry[];
