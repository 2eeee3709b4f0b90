// The schema commands both CLIs carry (introspect, drift, lint, check), the catalog readers behind them and
// the REST API settings they use.
export { type ApiSettings, apiClient, DEFAULT_API_URL } from './api';
export {
  type CommandIo,
  errorLine,
  type IntrospectPublisher,
  type SchemaCommandContext,
} from './command-context';
export {
  type DatabaseTarget,
  databaseTarget,
  type Introspection,
  IntrospectionError,
  introspect,
  REQUIRED_PRIVILEGES,
} from './introspect';
export { patchToLive } from './introspect/proposal-patch';
export { sarifLog } from './sarif';
export { introspectionProposal, registerSchemaCommands } from './schema-commands';
export { UsageError } from './usage-error';
