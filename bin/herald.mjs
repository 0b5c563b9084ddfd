#!/usr/bin/env node
// The `herald` command (package.json "bin"). It runs the TypeScript source as
// the server does, through tsx, so a fresh clone works after `npm ci` with no
// build step. tsImport scopes tsx's loader to this import and what it imports.
import { tsImport } from 'tsx/esm/api';

await tsImport('../src/cli/main.ts', import.meta.url);
