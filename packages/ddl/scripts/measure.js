// Measures convertDdl on the public corpus (../shared/corpus): median wall time of 5 runs after one
// warm-up, plus table/relationship counts against manifest.json. Run after a build:
//   npx tsc --build && node packages/ddl/scripts/measure.js [driver]
const fs = require('node:fs');
const path = require('node:path');
const { convertDdl } = require('../dist');

const corpus = path.resolve(__dirname, '../../../../shared/corpus');
const manifest = JSON.parse(fs.readFileSync(path.join(corpus, 'manifest.json'), 'utf8'));

async function main() {
  for (const entry of manifest.files) {
    if (process.argv[2] && entry.driver !== process.argv[2]) continue;
    const sql = fs.readFileSync(path.join(corpus, entry.file), 'utf8');
    const times = [];
    let result;
    for (let run = 0; run < 6; run++) {
      const start = process.hrtime.bigint();
      result = await convertDdl(entry.driver, sql);
      if (run > 0) times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    times.sort((a, b) => a - b);
    const counts = result.ok
      ? `tables ${result.document.tables.length}/${entry.tables}, relationships ${result.document.relationships.length}/${entry.relationships}, skipped ${result.skipped}, warnings ${result.warnings.length}`
      : `${result.code}: ${result.message}`;
    const rss = Math.round(process.memoryUsage().rss / 1e6);
    console.log(
      `${entry.file} (${Math.round(sql.length / 1024)}KB): median ${times[2].toFixed(0)} ms, rss ${rss} MB; ${counts}`,
    );
  }
}

main();
