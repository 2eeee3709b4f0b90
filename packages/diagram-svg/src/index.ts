export { diagramCss } from './css';
export { themed } from './theme-css';
export { drawBundlePath, lineRoomStep, viewportBundlePath } from './bundle-path';
export { type DrawFailure, type DrawProblem, type DrawResult, drawFromLocation } from './draw-page';
export { type ChangeMark, type DiagramHighlight, emptyHighlight } from './highlight';
export {
  type DiagramParts,
  type DrawnPart,
  makeRoomForLines,
  type RenderOptions,
  renderDiagramParts,
  renderDiagramSvg,
  RouteMemory,
  type RouteSeed,
  svgOfParts,
  MarkupCache,
  TABLE_LAYER_ATTRIBUTES,
} from './render';
export { type ReviewDrawing, reviewDiagram } from './review';
export { busyTables, type HubCopy } from './hub-copies';
export { escapeXml } from './xml';
export {
  copyName,
  type Crossing,
  crossings,
  type Drawing,
  drawingMetrics,
  type MeasuredRelationship,
  type MeasuredTable,
  measureSvg,
  pointsOfPath,
  type SharedRun,
  sharedRuns,
} from './geometry-check';
export {
  type BorderRun,
  borderRuns,
  lineCrossings,
  medianLengthInTableWidths,
  type NearParallel,
  nearParallelPairs,
  readabilityMetrics,
} from './line-metrics';
