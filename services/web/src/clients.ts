// The gRPC clients the web app calls (the platform's one client factory), one per service.
import { createServiceClient, type Metrics, type ServiceClient } from '@dss/platform';
import type { WebConfig } from './config';

export interface WebClients {
  accounts: ServiceClient<'Accounts'>;
  diagrams: ServiceClient<'Diagrams'>;
  proposals: ServiceClient<'Proposals'>;
  notifications: ServiceClient<'Notifications'>;
  importer: ServiceClient<'Importer'>;
  close(): void;
}

export function connectWebClients(config: WebConfig, metrics?: Metrics): WebClients {
  const accounts = createServiceClient('Accounts', config.accountsAddress, { metrics });
  const diagrams = createServiceClient('Diagrams', config.diagramsAddress, { metrics });
  const proposals = createServiceClient('Proposals', config.proposalsAddress, { metrics });
  const notifications = createServiceClient('Notifications', config.notificationsAddress, { metrics });
  const importer = createServiceClient('Importer', config.importerAddress, { metrics });
  return {
    accounts,
    diagrams,
    proposals,
    notifications,
    importer,
    close() {
      importer.close();
      notifications.close();
      accounts.close();
      diagrams.close();
      proposals.close();
    },
  };
}
