// Preloaded with `node --import` into a measured converge process: on exit, writes the process's own peak
// resident set size (process.resourceUsage().maxRSS, kilobytes: the kernel's ru_maxrss for this process) to
// the file named by BENCH_MAXRSS_FILE. Nothing else changes in the process.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_MAXRSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
