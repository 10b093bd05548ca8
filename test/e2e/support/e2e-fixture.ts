/**
 * The set-up every end-to-end file shares: an emulator started before the
 * tests of the block that asks for it and closed after them, with its
 * control client and a client of the service; stacks removed after the file.
 */
import { afterAll, beforeAll } from "vitest";
import { AgentHostingClient } from "../../../src/client/client";
import { EmulatorControl, startEmulator, type EmulatorOptions, type RunningEmulator } from "../../../src/emulator";
import { e2eStack, type StackHandle } from "./stack";

export interface EmulatorFixture {
  readonly emulator: RunningEmulator;
  readonly control: EmulatorControl;
  /** A client of the service with the emulator's key. */
  readonly client: AgentHostingClient;
}

/** An emulator for the enclosing describe block (or the file): `options.port` defaults to 0. */
export function useEmulator(options: EmulatorOptions): EmulatorFixture {
  let started: EmulatorFixture | undefined;
  beforeAll(async () => {
    const emulator = await startEmulator({ port: 0, ...options });
    started = { emulator, control: new EmulatorControl(emulator.baseUrl), client: new AgentHostingClient({ baseUrl: emulator.url, apiKey: emulator.apiKey }) };
  });
  afterAll(async () => {
    await started?.client.close();
    await started?.emulator.close();
  });
  const get = (): EmulatorFixture => {
    if (!started) throw new Error("the emulator starts in beforeAll: use it inside a test or a hook");
    return started;
  };
  return {
    get emulator() {
      return get().emulator;
    },
    get control() {
      return get().control;
    },
    get client() {
      return get().client;
    },
  };
}

/** Makes stacks (test/e2e/support/stack.ts) and removes them after the file. */
export function useStacks(): (name: string, settings: Parameters<typeof e2eStack>[1]) => StackHandle {
  const stacks: StackHandle[] = [];
  afterAll(() => {
    for (const stack of stacks) stack.remove();
  });
  return (name, settings) => {
    const stack = e2eStack(name, settings);
    stacks.push(stack);
    return stack;
  };
}
