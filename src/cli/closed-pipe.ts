import type { TextSink } from './host.js';

/**
 * `converge state list | head -3`: once the reader of stdout (or stderr) is gone, a write fails
 * with EPIPE, which Node raises as an unhandled 'error' event and a stack trace. Here a closed pipe
 * only stops the output: the command still runs to its end, so an apply saves its state and releases
 * the lock, and exits with its own code. Any other stream error stays fatal.
 */
export function quietWhenPipeCloses(stream: NodeJS.WriteStream): TextSink {
  let closed = false;
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') {
      closed = true;
      return;
    }
    throw e;
  });
  return {
    get isTTY() {
      return stream.isTTY;
    },
    write(text: string) {
      if (closed || stream.destroyed) return false;
      return stream.write(text);
    },
  };
}
