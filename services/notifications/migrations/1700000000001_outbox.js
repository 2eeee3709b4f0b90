// The transactional outbox of the notifications context: empty today, there for the shared relay (and for
// events it may announce later, such as an endpoint disabled).
const { outboxTableSql } = require('@dss/platform');

exports.up = (pgm) => {
  pgm.sql(outboxTableSql('notifications'));
};

exports.down = (pgm) => {
  pgm.sql('DROP TABLE notifications.outbox');
};
