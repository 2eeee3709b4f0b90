export { enqueueEvent } from './enqueue';
export { OutboxRelay, type OutboxRelayOptions } from './relay';
export { outboxTableSql } from './table';
export { Wakeup } from './wakeup';
