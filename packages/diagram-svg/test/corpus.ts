// The public corpus beside the clone (`<repository root>/../shared/corpus`), as CI has it; never skipped:
// without it the tests fail with one line naming the path they looked at.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { convertDdl, type DdlDriver } from '@dss/ddl';
import type { DiagramDocument } from '@dss/schema';

export const CORPUS = path.resolve(__dirname, '../../../../shared/corpus');

export interface CorpusFile {
  file: string;
  driver: DdlDriver;
}

export function corpusFiles(): CorpusFile[] {
  if (!fs.existsSync(path.join(CORPUS, 'manifest.json')))
    throw new Error(`the public corpus is missing: expected ${CORPUS}/manifest.json beside the repository`);
  return (JSON.parse(fs.readFileSync(path.join(CORPUS, 'manifest.json'), 'utf8')) as { files: CorpusFile[] })
    .files;
}

/** The file imported as the importer does: DDL → document with its computed layout. */
export async function importCorpus(entry: CorpusFile): Promise<DiagramDocument> {
  const result = await convertDdl(entry.driver, fs.readFileSync(path.join(CORPUS, entry.file), 'utf8'));
  if (!result.ok) throw new Error(`${entry.file}: ${result.code}: ${result.message}`);
  return result.document;
}
