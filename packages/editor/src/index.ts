export { drawingBenchPagePath, editorBundlePath, newDiagramBundlePath } from './bundle-path';
export { editorCss } from './css';
export { type EditPatch, isEmptyPatch, patchBetween, writtenColumn } from './changes';
export { type EditResult, EditorStore, UNDO_LIMIT } from './store';
export { freeSpotFor, type Rect } from './placement';
export { type LayerPlan, type LayerStep, patchable, planLayer } from './drawing-patch';
