export { BODY_LIMIT_BYTES, createGatewayApp, objectBody, type RouteSpec } from './app';
export { Authenticator, type Principal } from './authenticator';
export { type GatewayConfig, readGatewayConfig } from './config';
export { HttpError, sendError, statusOf } from './http-errors';
export { createRateLimits, OPERATION_CLASSES, type OperationClass } from './rate-limits';
export { type Gateway, startGateway } from './server';
export { connectRouteClients, type RouteClients, v1Routes } from './routes';
export { withCommonResponses } from './openapi';
