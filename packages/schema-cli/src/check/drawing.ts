// The picture of a change for the pull-request report: the changed tables and their direct neighbours,
// drawn by the server's renderer with the review page's highlight (added, changed, removed), rasterised
// with resvg's WebAssembly build and the DejaVu fonts (as the gateway's PNG export does).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderDiagramSvg, reviewDiagram } from '@dss/diagram-svg';
import type { DiagramDocument, DocumentDiff } from '@dss/schema';

/**
 * A file the PNG needs: in `assets/` beside this code when it was bundled with its files (the developer
 * CLI's package: packages/dev-cli/scripts/bundle.js), else in the package that ships it.
 */
function assetFile(name: string, packageFolder: () => string): string {
  const bundled = path.join(__dirname, 'assets', name);
  return fs.existsSync(bundled) ? bundled : path.join(packageFolder(), name);
}

/** The uuids of the tables a change touches, and of the tables linked to them. */
function changedPart(document: DiagramDocument, changes: DocumentDiff): Set<string> {
  const byName = new Map(document.tables.map((table) => [table.name, table.uuid]));
  const touched = new Set<string>([
    ...changes.tables.added.map((table) => table.uuid),
    ...changes.tables.removed.map((table) => table.uuid),
    ...changes.tables.changed.map((change) => change.uuid),
    ...[changes.columns, changes.indexes].flatMap((section) => [
      ...section.added.map((part) => part.table_uuid),
      ...section.removed.map((part) => part.table_uuid),
      ...section.changed.map((part) => part.table_uuid),
    ]),
  ]);
  for (const relationship of [...changes.relationships.added, ...changes.relationships.removed])
    for (const name of [relationship.source_table, relationship.target_table]) {
      const uuid = byName.get(name);
      if (uuid) touched.add(uuid);
    }
  const part = new Set(touched);
  for (const relationship of document.relationships) {
    const [source, target] = [byName.get(relationship.source_table), byName.get(relationship.target_table)];
    if (source && target && (touched.has(source) || touched.has(target))) {
      part.add(source);
      part.add(target);
    }
  }
  return part;
}

/** A PNG of the changed part with the change highlighted; null when nothing in the schema changed. */
export async function changesPng(
  before: DiagramDocument,
  after: DiagramDocument,
  changes: DocumentDiff,
  title: string,
): Promise<Uint8Array | null> {
  const review = reviewDiagram(before, after, changes);
  const part = changedPart(review.document, changes);
  if (part.size === 0) return null;
  const tables = review.document.tables.filter((table) => part.has(table.uuid));
  const names = new Set(tables.map((table) => table.name));
  const document = {
    ...review.document,
    tables: tables.map((table) => ({ ...table, parent_uuid: null })),
    relationships: review.document.relationships.filter(
      (r) => names.has(r.source_table) && names.has(r.target_table),
    ),
    groups: [],
    sticky_notes: [],
  };
  const svg = renderDiagramSvg(document, { highlight: review.highlight, title });
  const viewWidth = Number(/viewBox="[-\d.]+ [-\d.]+ ([\d.]+) /.exec(svg)?.[1] ?? 1200);
  const resvg = await import('@resvg/resvg-wasm');
  await initialised(resvg);
  const fonts = () => path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
  const renderer = new resvg.Resvg(svg, {
    fitTo: { mode: 'width', value: Math.round(Math.min(2400, Math.max(800, viewWidth))) },
    background: '#ffffff',
    font: {
      fontBuffers: [
        'DejaVuSans.ttf',
        'DejaVuSans-Bold.ttf',
        'DejaVuSansMono.ttf',
        'DejaVuSansMono-Bold.ttf',
      ].map((file) => new Uint8Array(fs.readFileSync(assetFile(file, fonts)))),
      defaultFontFamily: 'DejaVu Sans',
      sansSerifFamily: 'DejaVu Sans',
      monospaceFamily: 'DejaVu Sans Mono',
    },
  });
  try {
    const image = renderer.render();
    try {
      return image.asPng();
    } finally {
      image.free();
    }
  } finally {
    renderer.free();
  }
}

let ready: Promise<void> | undefined;
function initialised(resvg: typeof import('@resvg/resvg-wasm')): Promise<void> {
  ready ??= resvg.initWasm(
    fs.readFileSync(assetFile('index_bg.wasm', () => path.dirname(require.resolve('@resvg/resvg-wasm')))),
  );
  return ready;
}
