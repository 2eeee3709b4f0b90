// A layout's last step for the conversion pool's test (ConversionPoolOptions.finishLayout): moves every
// table 1,000 px to the right, so the test sees that the workers ran it.
exports.moveRight = (document) => ({
  ...document,
  tables: document.tables.map((table) => ({ ...table, left: table.left + 1000 })),
});
