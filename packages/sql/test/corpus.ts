// The public corpus beside the clone (`<repository root>/../shared/corpus`), as CI has it; never skipped:
// without it the tests fail with one line naming the path they looked at. The one corpus helper of every
// package's tests (diagram-svg, schema-cli and the web app's read it from here).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { convertDdl } from '@dss/ddl';
import { memoForRun } from '@dss/platform/testing';
import type { DiagramDocument, Driver } from '@dss/schema';

export const CORPUS = path.resolve(__dirname, '../../../../shared/corpus');

export interface CorpusFile {
  file: string;
  driver: Driver;
}

export function corpusFiles(): CorpusFile[] {
  if (!fs.existsSync(path.join(CORPUS, 'manifest.json')))
    throw new Error(
      `the public DDL corpus is missing: expected ${CORPUS}/manifest.json beside the repository`,
    );
  return (JSON.parse(fs.readFileSync(path.join(CORPUS, 'manifest.json'), 'utf8')) as { files: CorpusFile[] })
    .files;
}

export async function importFile(driver: Driver, sql: string): Promise<DiagramDocument> {
  const result = await convertDdl(driver, sql);
  if (!result.ok) throw new Error(`${result.code}: ${result.message} (line ${result.line})`);
  return result.document;
}

/**
 * Each corpus file is converted once per test run (the SQL Server reader takes seconds per file to build
 * its parser's tables, in every test file anew), then once per test file from the run's memo.
 */
const imported = new Map<string, Promise<DiagramDocument>>();

/**
 * The corpus file's document as the importer makes it (DDL → document with its computed layout); a copy
 * of its own for each caller, who may change it. Files that test the conversion itself call convertDdl.
 */
export async function importCorpus(entry: CorpusFile): Promise<DiagramDocument> {
  let document = imported.get(entry.file);
  if (!document) {
    const sql = fs.readFileSync(path.join(CORPUS, entry.file), 'utf8');
    document = memoForRun(`corpus document\0${entry.driver}\0${sql}`, () => importFile(entry.driver, sql));
    imported.set(entry.file, document);
  }
  return structuredClone(await document);
}

/** A document reduced to what a script carries (no uuids or canvas), indexes in name order. */
export function schemaOf(document: DiagramDocument) {
  return {
    driver: document.driver,
    tables: [...document.tables]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((table) => ({
        name: table.name,
        comment: table.comment,
        columns: table.columns.map(({ uuid: _uuid, ...column }) => column),
        indexes: table.indexes
          .map(({ uuid: _uuid, ...index }) => index)
          .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
        checks: table.checks ?? [],
      })),
    relationships: document.relationships
      .map(({ uuid: _uuid, ...relationship }) => JSON.stringify(relationship))
      .sort(),
  };
}
