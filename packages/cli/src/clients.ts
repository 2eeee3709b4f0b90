// gRPC clients of the services the CLI talks to, at the addresses `npm start` uses.
import { createServiceClient, grpcAddress, type ServiceClient } from '@dss/platform';

export interface Clients {
  accounts: ServiceClient<'Accounts'>;
  proposals: ServiceClient<'Proposals'>;
  diagrams: ServiceClient<'Diagrams'>;
  notifications: ServiceClient<'Notifications'>;
  close(): void;
}

export function connectClients(env: NodeJS.ProcessEnv): Clients {
  const accounts = createServiceClient('Accounts', grpcAddress('accounts', env), { deadlineMs: 15_000 });
  const proposals = createServiceClient('Proposals', grpcAddress('proposals', env), { deadlineMs: 30_000 });
  const diagrams = createServiceClient('Diagrams', grpcAddress('diagrams', env), { deadlineMs: 30_000 });
  const notifications = createServiceClient('Notifications', grpcAddress('notifications', env), {
    deadlineMs: 15_000,
  });
  return {
    accounts,
    proposals,
    diagrams,
    notifications,
    close() {
      notifications.close();
      accounts.close();
      proposals.close();
      diagrams.close();
    },
  };
}
