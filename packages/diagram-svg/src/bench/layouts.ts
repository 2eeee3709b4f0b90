// `npm run bench -w @dss/diagram-svg` (after a build), third part: whole-schema layouts side by side. For
// each graph (Lago's 139 tables and 340 FKs, OpenStreetMap's 57, danbooru's 66 and the corpus's other schemas, and a generated
// 300-table/600-FK schema), each candidate lays out every table, the server-side drawing routes the lines,
// and the drawing is measured in drawing units: line crossings (per relationship), pairs of lines 2–8 px
// apart for more than 80 px, lines within 3 px of a table they do not connect, lines through tables, shared
// runs, median line length in table widths, area, and the time of layout plus routing.
//   import     the import's layout as it is now: from 30 tables (with a relationship per two tables) force,
//              then refined, and from 100 tables room made for the lines (line-room.ts); below 30, dagre
//   dagre      the import's layout before (packages/schema: dagre per connected unit, units packed in rows)
//   elk-layered, elk-stress   elkjs 0.12.1 (ELK's layered and stress algorithms) on the whole graph
//   clustered  packages/schema's layOutClusters (clusters by foreign-key neighbourhood and prefix, hubs central)
//   force      packages/schema's layOutForce (d3-force: springs and repulsion, then the Placer removes overlaps)
//   refined    force, then refineLayout (tables trade places where their lines cross less and run shorter):
//              the import's whole-schema layout, here for graphs of any size
// DSS_BENCH_ORDERS=N adds a row per graph: the import's layout of the same schema with its tables in N other
// (seeded) orders, as another dump of it would list them; the mean of each measure, and the most shared runs
// and lines through tables of any order. One order's numbers can be a lucky or an unlucky draw.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { convertDdl, type DdlDriver } from '@dss/ddl';
import {
  type DiagramDocument,
  layOutClusters,
  layOutForce,
  layOutNewRecords,
  portLinks,
  reLayOut,
  refineLayout,
} from '@dss/schema';
import { crossings, measureSvg, sharedRuns } from '../geometry-check';
import { makeRoomForLines } from '../line-room';
import { readabilityMetrics } from '../line-metrics';
import { renderDiagramSvg } from '../render';
import { generatedDiagram, inSeededOrder } from './schema-generator';

// elkjs's bundled build runs ELK (compiled from Java) in this thread; its API answers with a promise.
const ELK = require('elkjs/lib/elk.bundled.js');

const CORPUS = path.resolve(__dirname, '../../../../../shared/corpus');

type Layout = (document: DiagramDocument) => Promise<Map<string, { left: number; top: number }>>;

const LAYOUTS: [string, Layout | null][] = [
  ['import', null],
  [
    'dagre',
    async (document) => {
      const frames = layOutNewRecords(
        document,
        { tables: new Set(document.tables.map((table) => table.uuid)), groups: new Set(), notes: new Set() },
        { wholeSchema: false },
      );
      return new Map(document.tables.map((table) => [table.name, frames.get(table.uuid) ?? table] as const));
    },
  ],
  [
    'elk-layered',
    (document) => elkLayout(document, { 'elk.algorithm': 'layered', 'elk.direction': 'RIGHT' }),
  ],
  [
    'elk-stress',
    (document) => elkLayout(document, { 'elk.algorithm': 'stress', 'elk.stress.desiredEdgeLength': '260' }),
  ],
  [
    'clustered',
    async (document) =>
      layOutClusters(
        document.tables.map((table) => ({ name: table.name, width: table.width, height: table.height })),
        document.relationships.map((link) => ({ source: link.source_table, target: link.target_table })),
      ),
  ],
  [
    'force',
    async (document) =>
      layOutForce(
        document.tables.map((table) => ({ name: table.name, width: table.width, height: table.height })),
        document.relationships.map((link) => ({ source: link.source_table, target: link.target_table })),
      ),
  ],
  [
    'refined',
    async (document) => {
      const tables = document.tables.map((table) => ({
        name: table.name,
        width: table.width,
        height: table.height,
      }));
      const links = portLinks(document);
      return refineLayout(tables, links, layOutForce(tables, links));
    },
  ],
];

async function elkLayout(document: DiagramDocument, options: Record<string, string>) {
  const elk = new ELK();
  const graph = await elk.layout({
    id: 'root',
    layoutOptions: {
      'elk.spacing.nodeNode': '56',
      'elk.layered.spacing.nodeNodeBetweenLayers': '112',
      'elk.spacing.componentComponent': '96',
      ...options,
    },
    children: document.tables.map((table) => ({ id: table.name, width: table.width, height: table.height })),
    edges: document.relationships
      .filter((link) => link.source_table !== link.target_table)
      .map((link, at) => ({ id: `e${at}`, sources: [link.target_table], targets: [link.source_table] })),
  });
  const out = new Map<string, { left: number; top: number }>();
  for (const child of graph.children as { id: string; x: number; y: number }[])
    out.set(child.id, { left: Math.round(child.x), top: Math.round(child.y) });
  return out;
}

async function graphs(): Promise<[string, DiagramDocument][]> {
  const out: [string, DiagramDocument][] = [];
  const fromDdl = async (label: string, file: string, driver: DdlDriver) => {
    if (!fs.existsSync(file)) throw new Error(`missing: ${file}`);
    const result = await convertDdl(driver, fs.readFileSync(file, 'utf8'));
    if (!result.ok) throw new Error(`${label}: ${result.message}`);
    out.push([label, result.document]);
  };
  // Larger real schemas are not kept in the repository (public dumps are not copied into the project):
  // DSS_WILD_SCHEMAS names a folder holding them; README "Layout benchmark" says where each comes from.
  const wild = process.env.DSS_WILD_SCHEMAS;
  for (const [label, file] of [
    ['lago 139/340', 'lago.sql'],
    ['openstreetmap 57/76', 'openstreetmap.sql'],
  ] as const) {
    if (wild && fs.existsSync(path.join(wild, file))) await fromDdl(label, path.join(wild, file), 'pgsql');
    else console.log(`layouts: ${label} not measured (put ${file} in the folder DSS_WILD_SCHEMAS names)`);
  }
  await fromDdl('danbooru 66/93', path.join(CORPUS, 'pgsql/danbooru.sql'), 'pgsql');
  await fromDdl('adventureworks 71/90', path.join(CORPUS, 'sqlsrv/adventureworks.sql'), 'sqlsrv');
  await fromDdl('pterodactyl 35/35', path.join(CORPUS, 'mysql/pterodactyl.sql'), 'mysql');
  out.push(['generated 140/340', generatedDiagram({ tables: 140, relationships: 340 })]);
  out.push(['generated 300/600', generatedDiagram({ tables: 300, relationships: 600 })]);
  return out;
}

async function main(): Promise<void> {
  const only = process.env.DSS_BENCH_LAYOUTS?.split(',');
  const onlyGraphs = process.env.DSS_BENCH_GRAPHS?.split(',');
  const orders = Number(process.env.DSS_BENCH_ORDERS ?? 0);
  console.log(
    'layouts: crossings (per relationship) | of lines sharing an end table | near-parallel pairs | border runs | through tables | shared runs | median length (table widths) | bends per line | area (Mpx) | layout + routing ms',
  );
  for (const [label, document] of await graphs()) {
    if (onlyGraphs && !onlyGraphs.some((prefix) => label.startsWith(prefix))) continue;
    for (const [name, layout] of LAYOUTS) {
      if (only && !only.includes(name)) continue;
      const started = performance.now();
      const positions = layout === null ? null : await layout(document);
      // The import's layout ran in the conversion (convertDdl, or the generator's apply); its last step,
      // the lines' room, runs in the conversion workers: timed here.
      const laidOut =
        positions === null
          ? makeRoomForLines(document)
          : {
              ...document,
              tables: document.tables.map((table) => ({ ...table, ...(positions.get(table.name) ?? {}) })),
            };
      const laidOutMs = performance.now() - started;
      const row = measured(laidOut, laidOutMs, started);
      console.log(formatRow(`${label.padEnd(22)} ${name.padEnd(12)}`, row));
      if (name === 'import') {
        // The read-only views' drawing of the same layout: busy tables drawn again (hub-copies.ts). The time
        // is the layout's plus this drawing's.
        const drawnFrom = performance.now() - laidOutMs;
        console.log(
          formatRow(
            `${label.padEnd(22)} ${'+ copies'.padEnd(12)}`,
            measured(laidOut, laidOutMs, drawnFrom, true),
          ),
        );
      }
    }
    if (orders > 0 && (!only || only.includes('import'))) {
      // The same schema with its tables in other orders (a dump's order is arbitrary), laid out as an
      // import lays it out (reLayOut is the same whole-schema layout) and room made: the mean of each
      // measure, and the most shared runs and lines through tables of any order.
      const rows: Row[] = [];
      for (let order = 1; order <= orders; order++) {
        const started = performance.now();
        const laidOut = makeRoomForLines(reLayOut(inSeededOrder(document, order)));
        rows.push(measured(laidOut, performance.now() - started, started));
      }
      const mean = (pick: (row: Row) => number) =>
        Math.round((rows.reduce((sum, row) => sum + pick(row), 0) / rows.length) * 10) / 10;
      const most = (pick: (row: Row) => number) => Math.max(...rows.map(pick));
      console.log(
        formatRow(`${label.padEnd(22)} ${`${orders} orders`.padEnd(12)}`, {
          crossings: mean((row) => row.crossings),
          perRelationship: mean((row) => row.perRelationship),
          sharedEnd: mean((row) => row.sharedEnd),
          nearParallel: mean((row) => row.nearParallel),
          border: mean((row) => row.border),
          through: most((row) => row.through),
          shared: most((row) => row.shared),
          median: mean((row) => row.median),
          bends: mean((row) => row.bends),
          area: mean((row) => row.area),
          totalMs: mean((row) => row.totalMs),
          layoutMs: mean((row) => row.layoutMs),
        }),
      );
    }
  }
}

interface Row {
  crossings: number;
  perRelationship: number;
  sharedEnd: number;
  nearParallel: number;
  border: number;
  through: number;
  shared: number;
  median: number;
  bends: number;
  area: number;
  totalMs: number;
  layoutMs: number;
}

/** Draws the laid-out document and measures the drawing (time counted from `started`). */
function measured(laidOut: DiagramDocument, layoutMs: number, started: number, hubCopies = false): Row {
  const svg = renderDiagramSvg(laidOut, { hubCopies });
  const totalMs = performance.now() - started;
  const drawing = measureSvg(svg);
  const metrics = readabilityMetrics(drawing);
  return {
    crossings: metrics.crossings,
    perRelationship: metrics.crossingsPerRelationship,
    sharedEnd: metrics.sharedEndCrossings,
    nearParallel: metrics.nearParallelPairs,
    border: metrics.borderRuns,
    through: crossings(drawing).length,
    shared: sharedRuns(drawing).length,
    median: metrics.medianLengthInTableWidths,
    bends: metrics.bendsPerLine,
    area: metrics.areaMegapixels,
    totalMs,
    layoutMs,
  };
}

function formatRow(label: string, row: Row): string {
  return [
    label,
    `${String(row.crossings).padStart(6)} (${row.perRelationship})`.padEnd(14),
    String(row.sharedEnd).padStart(5),
    String(row.nearParallel).padStart(5),
    String(row.border).padStart(5),
    String(row.through).padStart(4),
    String(row.shared).padStart(4),
    String(row.median).padStart(6),
    String(row.bends).padStart(5),
    String(row.area).padStart(7),
    `${Math.round(row.totalMs)} ms (layout ${Math.round(row.layoutMs)})`,
  ].join(' | ');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
