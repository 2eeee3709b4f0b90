export * from './contract';
export * from './contract-types';
