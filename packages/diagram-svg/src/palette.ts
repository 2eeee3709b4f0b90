// Every colour the drawing uses, in one place. Document colours are used only when they are strict
// `#rgb` / `#rrggbb` values (anything else could carry markup or CSS into an attribute), otherwise the
// default of their kind.
import type { ChangeMark } from './highlight';

// Unquoted family names (valid CSS): the attribute values then need no escaping on every row.
export const FONT_SANS = 'system-ui, -apple-system, Segoe UI, Roboto, Helvetica Neue, Arial, sans-serif';
export const FONT_MONO = 'ui-monospace, Menlo, Consolas, monospace';

export const INK = '#0f172a';
export const INK_MUTED = '#475569';
export const INK_FAINT = '#94a3b8';
export const WHITE = '#ffffff';

export const TABLE_BODY = '#ffffff';
export const TABLE_BORDER = '#cbd5e1';
export const TABLE_HEADER_DEFAULT = '#e2e8f0';
export const GROUP_DEFAULT = '#94a3b8';
export const NOTE_DEFAULT = '#fef9c3';
export const NOTE_BORDER = '#e7e5e4';
export const RELATIONSHIP_LINE = '#64748b';

export const BADGE_COLORS = { PK: '#b45309', UQ: '#7c3aed', IX: '#64748b', FK: '#2563eb' } as const;

/** Strong colour of a mark (outlines, lines, index bars) and its pale tint (row backgrounds). */
export const MARK_COLORS: Record<ChangeMark, { strong: string; tint: string }> = {
  added: { strong: '#16a34a', tint: '#dcfce7' },
  changed: { strong: '#d97706', tint: '#fef3c7' },
  removed: { strong: '#dc2626', tint: '#fee2e2' },
};
/** Dash pattern of removed outlines and lines. */
export const REMOVED_DASH = '6 4';

const STRICT_HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** The colour if it is a strict hex colour, else `fallback`. */
export function safeColor(value: unknown, fallback: string): string {
  return typeof value === 'string' && STRICT_HEX.test(value) ? value.toLowerCase() : fallback;
}

/** Dark ink on light colours, white on dark ones (relative luminance of a strict hex colour). */
export function inkOn(hexColor: string): string {
  const digits = hexColor.slice(1);
  const full = digits.length === 3 ? [...digits].map((digit) => digit + digit).join('') : digits;
  const [r, g, b] = [0, 2, 4].map((at) => linear(Number.parseInt(full.slice(at, at + 2), 16) / 255));
  const luminance = 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  return luminance > 0.4 ? INK : WHITE;
}

function linear(channel: number): number {
  return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
}
