import { subscribe } from 'node:diagnostics_channel';
import type { ServerResponse } from 'node:http';

/*
 * What is under way outside any clock in this process, for a test that moves a ManualClock (`onClock` in story.ts):
 * an HTTP exchange on its way between the client (undici) and a server started in this process (a simulator, a
 * test's own server), and file operations (state written, lock files). Time moved while one is under way passes
 * "during" a loopback request or a write that takes no time in the real world: a run steps on while the client
 * waits for a reply that is already sent.
 *
 * An exchange counts from undici's `undici:request:create` until its response headers or its error; a server is
 * busy with a request from node's `http.server.request.start` until its response finished or closed. Requests the
 * client has out beyond those the servers hold are on the wire. A server holding a reply on the clock (a simulator's
 * injected latency) holds it as busy, so time may move for it.
 */

/** Requests out, with when (real ms) each was created. */
const clientOut = new Map<object, number>();
const serverHeld = new Set<ServerResponse>();

// Watched from the import on, so every request of the stories is counted.
subscribe('undici:request:create', (m) => clientOut.set((m as { request: object }).request, performance.now()));
const answered = (m: unknown) => clientOut.delete((m as { request: object }).request);
subscribe('undici:request:headers', answered);
subscribe('undici:request:error', answered);
subscribe('http.server.request.start', (m) => {
  const res = (m as { response: ServerResponse }).response;
  serverHeld.add(res);
  const release = () => serverHeld.delete(res);
  res.once('finish', release);
  res.once('close', release);
});

/** Real milliseconds after which a request still out is taken as hung, not on its way. */
const ON_THE_WIRE_MS = 5_000;

/** An HTTP exchange is between client and server, or a file operation has not completed. */
export function underWay(): boolean {
  // A request out for longer than ON_THE_WIRE_MS is not on a loopback wire but hung or dropped (perhaps by an
  // earlier test file in the same worker): forgotten, so it does not hold every later story's clock.
  const now = performance.now();
  for (const [r, at] of clientOut) if (now - at > ON_THE_WIRE_MS) clientOut.delete(r);
  if (clientOut.size > serverHeld.size) return true;
  // FSReqCallback, FSReqPromise: a file operation; CloseReq: a file (or socket) being closed.
  return process.getActiveResourcesInfo().some((r) => r.startsWith('FSReq') || r === 'CloseReq');
}

