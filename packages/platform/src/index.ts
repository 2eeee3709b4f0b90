export * from './errors';
export * from './access-token';
