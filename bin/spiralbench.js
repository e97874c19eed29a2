#!/usr/bin/env node
import { main } from '../dist/cli/main.js';
import { finishCommand, installProcessHandlers } from '../dist/cli/process-handlers.js';

installProcessHandlers(process.argv);
finishCommand(await main(process.argv));
