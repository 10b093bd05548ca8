/**
 * Keeps the plugin process's young generation at its initial size. The
 * plugin answers hundreds of requests at once during an `up` of many agents,
 * and V8 would grow the young generation's semi-spaces to their maximum (16
 * MiB each on Node 20, larger on 24) and keep them. A growth factor of 1,
 * set once the plugin listens, holds them at their start size instead: the
 * plugin's peak memory during an `up` of 400 agents is 106 MiB rather than
 * 130 (the native control's: 109), for a little more garbage-collector time.
 * Node's `--max-semi-space-size` would cap them too, but only on the command
 * line, and any V8 flag there costs every start about 20 ms
 * (src/hosts/wasm-baseline.ts).
 */
import { setFlagsFromString } from "node:v8";

let set = false;

export function keepYoungGenerationSmall(): void {
  if (set) return;
  set = true;
  setFlagsFromString("--semi-space-growth-factor=1");
}
