/**
 * Keeps the WebAssembly compiled in a provider process on V8's baseline
 * compiler (Liftoff). The WebAssembly this provider brings is undici's HTTP
 * parser, compiled at the first connection; by default V8 then recompiles
 * its hot parse function with its optimizing compiler (TurboFan), whose work
 * for that one very large function raises the process's peak resident memory
 * by about 30 MiB (bench/README.md, "provider memory"), while small JSON
 * answers parse as fast on the baseline code.
 *
 * Both hosts call it once they run, before the client's first request: the
 * dynamic host inside the engine's dynamic-provider process, whose command
 * line the engine chooses, and the native plugin once it listens
 * (grpc/plugin-bin.ts). The plugin's launcher passes no V8 flag: any flag on
 * Node's command line makes Node compile its built-in modules from source
 * instead of from the code cache it ships (about 20 ms of every start). The
 * flags apply to WebAssembly compiled after this call, in this process only.
 */
import { setFlagsFromString } from "node:v8";

const WASM_BASELINE_FLAGS = "--no-wasm-tier-up --no-wasm-dynamic-tiering";

let set = false;

export function keepWasmOnBaseline(): void {
  if (set) return;
  set = true;
  setFlagsFromString(WASM_BASELINE_FLAGS);
}
