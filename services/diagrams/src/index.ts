export { type DiagramsConfig, readDiagramsConfig } from './config';
export { DIAGRAMS_CHANGED_SUBJECT, POLL_AFTER_SECONDS } from './create-diagram';
export { encodeCursor, type ListPosition } from './list-cursor';
export { type DiagramsService, startDiagramsService } from './server';
