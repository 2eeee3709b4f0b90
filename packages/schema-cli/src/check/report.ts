// The pull-request report of `dss check`: summary counts, the diff (the /diff engine's Markdown), the lint
// findings of the change and the migration SQL with its warnings, as one Markdown document.
import { type DocumentDiff, type LintFinding, lintCounts, renderDiffMarkdown } from '@dss/schema';
import type { Migration } from '@dss/sql';

export interface CheckReport {
  diagram: string;
  source: string;
  changes: DocumentDiff;
  lint: LintFinding[];
  migration: Migration;
  /** Where the picture of the changed part was written (relative to the report), if it was. */
  image?: string;
  /** Tables, columns, indexes and relationships added, changed and removed. */
  counts: Record<'added' | 'changed' | 'removed', number>;
}

const SECTIONS = ['tables', 'columns', 'indexes', 'relationships'] as const;

export function changeCounts(changes: DocumentDiff): CheckReport['counts'] {
  const total = (kind: 'added' | 'changed' | 'removed') =>
    SECTIONS.reduce((sum, section) => sum + changes[section][kind].length, 0);
  return { added: total('added'), changed: total('changed'), removed: total('removed') };
}

/** Text from the schema (names, messages, SQL) inside a fenced block or a table cell stays inert. */
const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
const fence = (text: string) => {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  return '`'.repeat(longest + 1);
};

export function renderCheckMarkdown(report: CheckReport): string {
  const { errors, warnings } = lintCounts(report.lint);
  const lines = [
    `# Schema check: diagram ${report.diagram} ← ${report.source}`,
    '',
    '| added | changed | removed | lint errors | lint warnings | migration warnings |',
    '|---|---|---|---|---|---|',
    `| ${report.counts.added} | ${report.counts.changed} | ${report.counts.removed} | ${errors} | ${warnings} | ${report.migration.warnings.length} |`,
    '',
    '## Changes',
    '',
    renderDiffMarkdown(report.changes).trim() || 'No changes.',
    '',
    ...(report.image
      ? [
          `![The changed part of the diagram: added, changed and removed tables highlighted](${report.image})`,
          '',
        ]
      : []),
    '## Lint',
    '',
    ...(report.lint.length === 0
      ? ['No findings.']
      : [
          '| severity | rule | table | message |',
          '|---|---|---|---|',
          ...report.lint.map(
            (f) => `| ${f.severity} | \`${f.rule}\` | ${cell(f.table)} | ${cell(f.message)} |`,
          ),
        ]),
    '',
    '## Migration',
    '',
    ...report.migration.warnings.map(
      (w) => `- **${w.code}** (statement ${w.statement + 1}): ${cell(w.message)}`,
    ),
    ...(report.migration.warnings.length > 0 ? [''] : []),
  ];
  const sql = report.migration.sql.trim() || '-- nothing to run';
  const marks = fence(sql);
  lines.push(`${marks}sql`, sql, marks, '');
  return lines.join('\n');
}
