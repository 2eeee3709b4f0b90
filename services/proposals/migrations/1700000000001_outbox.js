// The transactional outbox of the proposals context (events leave through it; see packages/platform).
const { outboxTableSql } = require('@dss/platform');

exports.up = (pgm) => {
  pgm.sql(outboxTableSql('proposals'));
};

exports.down = (pgm) => {
  pgm.sql('DROP TABLE proposals.outbox');
};
