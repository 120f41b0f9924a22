#!/usr/bin/env node
// Entry point of the `muster` CLI: runs the compiled CLI (built by `npm run build`, which `npm install` runs).
import '../dist/cli/main.js';
