export * from './model';
export * from './patch-types';
export * from './catalog';
export * from './contract';
export * from './normalize';
export * from './validate';
