// Preloaded with `node --import` into a measured converge process: on exit, writes the process's own peak
// resident set size (process.resourceUsage().maxRSS, kilobytes: the kernel's ru_maxrss for this process) to
// the file named by BENCH_MAXRSS_FILE, and the bytes it passed to write(2) (/proc/self/io `wchar`, Linux) to
// the file named by BENCH_WCHAR_FILE. Nothing else changes in the process.
import { readFileSync, writeFileSync } from 'node:fs';

const file = process.env.BENCH_MAXRSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
const io = process.env.BENCH_WCHAR_FILE;
if (io) process.on('exit', () => writeFileSync(io, /wchar: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? 'NaN'));
