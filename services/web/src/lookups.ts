// Finding what a page shows among the teams of the signed-in person. A diagram id says nothing about its
// team, so each of the person's teams is asked in turn (people belong to few teams); a diagram none of
// them can see is the same 404 as an unknown one.
import { isServiceError, isUuid } from '@dss/platform';
import type { DiagramDocument } from '@dss/schema';
import type { WebClients } from './clients';
import { documentOfBody } from './drawings';
import { notFound } from './page-errors';
import { type Membership, principalFor, type Viewer } from './viewer';

export type Diagram = Awaited<ReturnType<WebClients['diagrams']['GetDiagram']>>;

export async function findVisibleDiagram(
  clients: WebClients,
  viewer: Viewer,
  uuid: string,
): Promise<{ diagram: Diagram; membership: Membership }> {
  if (!isUuid(uuid)) throw notFound();
  for (const membership of viewer.memberships) {
    try {
      const diagram = await clients.diagrams.GetDiagram({
        principal: principalFor(viewer, membership),
        uuid,
      });
      return { diagram, membership };
    } catch (error) {
      if (!isServiceError(error) || error.code !== 'not_found') throw error;
    }
  }
  throw notFound();
}

/** The diagram's full document (`data` of schema-full), or null while it has none (importing, failed). */
export async function fullDocument(
  clients: WebClients,
  viewer: Viewer,
  membership: Membership,
  diagram: Diagram,
): Promise<DiagramDocument | null> {
  if (diagram.status !== 'ready') return null;
  const full = await clients.diagrams.GetFullDocument({
    principal: principalFor(viewer, membership),
    uuid: diagram.uuid,
  });
  return documentOfBody(full.body);
}

/** Display names of users by id, asked of accounts once per id; unknown ids read "a former user". */
export async function userNames(clients: WebClients, ids: string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  await Promise.all(
    [...new Set(ids)].map(async (id) => {
      try {
        const user = await clients.accounts.GetUser({ id, email: '' });
        names.set(id, user.name || user.email);
      } catch (error) {
        if (!isServiceError(error) || error.code !== 'not_found') throw error;
        names.set(id, 'a former user');
      }
    }),
  );
  return names;
}
