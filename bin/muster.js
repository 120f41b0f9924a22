#!/usr/bin/env node
// Entry point of the `muster` CLI: runs the bundled CLI (dist/bundle/, built by `npm run build`, which `npm install` runs; scripts/bundle.mjs).
import '../dist/bundle/main.js';
