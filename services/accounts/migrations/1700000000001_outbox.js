// The transactional outbox of the accounts context (events leave through it; see packages/platform).
const { outboxTableSql } = require('@dss/platform');

exports.up = (pgm) => {
  pgm.sql(outboxTableSql('accounts'));
};

exports.down = (pgm) => {
  pgm.sql('DROP TABLE accounts.outbox');
};
