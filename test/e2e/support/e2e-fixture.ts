/**
 * The stacks of an end-to-end file, removed after it. The emulator of a file
 * or a describe block is test/support/emulator-fixture.ts's `useEmulator`.
 */
import { afterAll } from "vitest";
import { e2eStack, type StackHandle } from "./stack";

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
