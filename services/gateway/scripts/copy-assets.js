#!/usr/bin/env node

// Copies the docs page's renderer (Redoc's standalone bundle, a build-time dependency) into dist/assets/,
// where src/openapi.ts serves it from: the running gateway needs neither redoc nor its React tree.
const fs = require('node:fs');
const path = require('node:path');

const target = path.join(__dirname, '..', 'dist', 'assets');
fs.mkdirSync(target, { recursive: true });
for (const [name, module] of [['redoc.standalone.js', 'redoc/bundles/redoc.standalone.js']]) {
  fs.copyFileSync(require.resolve(module), path.join(target, name));
}
