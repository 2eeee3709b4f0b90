export * from './catalog';
export * from './resolve';
export * from './types';
