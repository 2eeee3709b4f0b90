export * from './types';
export * from './config';
export * from './engine';
export { RESERVED_WORDS, isReservedWord } from './reserved-words';
