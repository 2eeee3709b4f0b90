// The /v1 routes of the REST API. Each route names its operation class (for the per-token rate limit)
// and whether it needs write access; the handlers call the gRPC services.
import { createServiceClient, type ServiceClient } from '@dss/platform';
import { DRIVERS } from '@dss/schema';
import type { RouteSpec } from './app';
import type { GatewayConfig } from './config';
import { diagramLifecycleRoutes } from './diagram-lifecycle-routes';
import { diagramRoutes } from './diagram-routes';
import { exportRoutes } from './export-routes';
import { conversationRoutes } from './conversation-routes';
import { lintRoutes } from './lint-routes';
import { proposalRoutes } from './proposal-routes';
import type { ProposalWaits } from './proposal-waits';
import { versionRoutes } from './version-routes';
import { webhookRoutes } from './webhook-routes';
import { auditRoutes } from './audit-routes';
import { optionalQueryEnum } from './query';
import { sendRepresentation } from './representation';
import type { RepresentationCache } from './representation-cache';

export interface RouteClients {
  accounts?: ServiceClient<'Accounts'>;
  catalog: ServiceClient<'Catalog'>;
  diagrams: ServiceClient<'Diagrams'>;
  proposals: ServiceClient<'Proposals'>;
  /** Absent in tests of other routes: the webhook routes are then not served. */
  notifications?: ServiceClient<'Notifications'>;
  close(): void;
}

export function connectRouteClients(config: GatewayConfig): RouteClients {
  const accounts = createServiceClient('Accounts', config.accountsAddress);
  const catalog = createServiceClient('Catalog', config.catalogAddress);
  const diagrams = createServiceClient('Diagrams', config.diagramsAddress);
  const proposals = createServiceClient('Proposals', config.proposalsAddress);
  const notifications = createServiceClient('Notifications', config.notificationsAddress);
  return {
    accounts,
    catalog,
    diagrams,
    proposals,
    notifications,
    close() {
      notifications.close();
      accounts.close();
      catalog.close();
      diagrams.close();
      proposals.close();
    },
  };
}

export function v1Routes(
  clients: RouteClients,
  options: { importWaitMs?: number; cache?: RepresentationCache; proposalWaits?: ProposalWaits } = {},
): RouteSpec[] {
  return [
    ...diagramRoutes(clients.diagrams, options),
    ...diagramLifecycleRoutes(clients.diagrams),
    ...versionRoutes(clients.diagrams, clients.accounts ?? null),
    ...proposalRoutes(clients.proposals, clients.diagrams, options.proposalWaits),
    ...conversationRoutes(clients.proposals),
    ...exportRoutes(clients.diagrams, clients.proposals),
    ...(clients.notifications ? webhookRoutes(clients.notifications) : []),
    ...lintRoutes(clients.diagrams, clients.proposals),
    ...(clients.accounts ? auditRoutes(clients.accounts) : []),
    {
      method: 'get',
      path: '/data-types',
      operation: 'read',
      write: false,
      handler: async (req, res) => {
        const driver = optionalQueryEnum(req, 'driver', DRIVERS) ?? '';
        sendRepresentation(req, res, await clients.catalog.ListDataTypes({ driver }));
      },
    },
    {
      method: 'get',
      path: '/schema-patch-contract',
      operation: 'read',
      write: false,
      handler: async (req, res) => {
        sendRepresentation(req, res, await clients.catalog.GetContract({}));
      },
    },
  ];
}
