// The transactional outbox of the diagrams context (events leave through it; see packages/platform).
const { outboxTableSql } = require('@dss/platform');

exports.up = (pgm) => {
  pgm.sql(outboxTableSql('diagrams'));
};

exports.down = (pgm) => {
  pgm.sql('DROP TABLE diagrams.outbox');
};
