#!/usr/bin/env node
import { main } from '../dist/cli/main.js';
import { installProcessHandlers } from '../dist/cli/process-handlers.js';

installProcessHandlers(process.argv);
process.exitCode = await main(process.argv);
