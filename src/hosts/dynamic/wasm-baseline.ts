/**
 * Keeps the WebAssembly compiled in the engine's dynamic-provider process on
 * V8's baseline compiler (Liftoff). The WebAssembly this provider brings
 * there is undici's HTTP parser, compiled at the first connection; by
 * default V8 then recompiles its hot parse function with its optimizing
 * compiler (TurboFan), whose work for that one very large function raises
 * the process's peak resident memory by about 30 MiB (bench/README.md,
 * "provider memory"), while small JSON answers parse as fast on the
 * baseline code. These are the flags the native plugin's launcher passes to Node
 * (scripts/lib/plugin-package.mjs); the dynamic-provider process is started
 * by the engine, so they are set here, before the client's first request.
 * They apply to WebAssembly compiled after this call, in this process only.
 */
import { setFlagsFromString } from "node:v8";

const WASM_BASELINE_FLAGS = "--no-wasm-tier-up --no-wasm-dynamic-tiering";

let set = false;

export function keepWasmOnBaseline(): void {
  if (set) return;
  set = true;
  setFlagsFromString(WASM_BASELINE_FLAGS);
}
