// `/diagrams/{uuid}/export/{format}[?version=n][&driver=mysql|pgsql|sqlsrv]`: the Export menu's downloads,
// written by @dss/export's exportBody (the code behind the API's `/v1/diagrams/{uuid}/export`), named
// `<diagram-slug>-v<n>.<ext>` with n the version exported (the newest when none is named). `driver` (SQL
// only) writes the script for that driver, converting the diagram when it is another's, and the file is
// then named `<diagram-slug>-v<n>.<driver>.sql`; plain `sql` stays the diagram's own driver.
import { EXPORT_FORMATS, type ExportFormat, exportBody, exportFileName } from '@dss/export';
import { DRIVERS, type Driver } from '@dss/schema';
import type { Router } from 'express';
import type { WebAppContext } from '../app-context';
import { findVisibleDiagram, fullDocument } from '../lookups';
import { notFound, PageError } from '../page-errors';
import { requireViewer, viewerOf } from '../session';
import { principalFor } from '../viewer';
import { versionDocument, versionNumberOf } from './versions';

export function exportRoutes(router: Router, context: WebAppContext): void {
  const { clients } = context;

  router.get('/diagrams/:uuid/export/:format', requireViewer, async (req, res) => {
    const viewer = viewerOf(res)!;
    const format = String(req.params.format);
    if (!(EXPORT_FORMATS as readonly string[]).includes(format)) throw notFound();
    const requested = req.query.version === undefined ? undefined : versionNumberOf(req.query.version);
    if (requested === null) throw notFound();
    const driver = driverOf(format, req.query.driver);
    if (driver === null) throw notFound();
    const { diagram, membership } = await findVisibleDiagram(clients, viewer, String(req.params.uuid));
    const { versions } = await clients.diagrams.ListVersions({
      principal: principalFor(viewer, membership),
      uuid: diagram.uuid,
    });
    const number = requested ?? versions[0]?.number;
    const document =
      requested === undefined
        ? await fullDocument(clients, viewer, membership, diagram)
        : await versionDocument(clients, viewer, membership, diagram, requested);
    if (!document || number === undefined)
      throw new PageError(
        409,
        'Nothing to export',
        'The diagram has no schema yet (it is importing, or its import failed).',
      );
    const exported = await exportBody(document, format as ExportFormat, { driver });
    res.setHeader(
      'Content-Disposition',
      `attachment; filename="${exportFileName(diagram.slug || diagram.name, exported.extension, number)}"`,
    );
    res.type(exported.contentType).send(exported.body);
  });
}

/** The `driver` of an SQL export: undefined when absent, null (a 404) when it names no driver or the format is not SQL. */
function driverOf(format: string, value: unknown): Driver | undefined | null {
  if (value === undefined) return undefined;
  if (format !== 'sql' || typeof value !== 'string') return null;
  return (DRIVERS as readonly string[]).includes(value) ? (value as Driver) : null;
}
