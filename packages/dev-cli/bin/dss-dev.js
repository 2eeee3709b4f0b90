#!/usr/bin/env node

// `dss-dev`: the bundle (bundle/dss-dev.js, what an installed package holds), or in a checkout the
// compiled sources when the bundle has not been built.
const { existsSync } = require('node:fs');
const path = require('node:path');

const bundled = path.join(__dirname, '..', 'bundle', 'dss-dev.js');
require(existsSync(bundled) ? bundled : path.join(__dirname, '..', 'dist', 'main.js'));
