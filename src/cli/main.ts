#!/usr/bin/env node
// Placeholder entry; the real CLI lands with the commands.
process.stdout.write('converge 0.1.0\n');
