export * from './export-formats';
export * from './file-name';
