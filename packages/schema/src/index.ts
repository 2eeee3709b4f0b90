export * from './model';
export * from './patch-types';
