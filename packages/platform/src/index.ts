export * from './errors';
export * from './access-token';
export * from './config';
export * from './grpc';
export * from './logging';
export * from './metrics';
export * from './request-context';
export * from './bus';
