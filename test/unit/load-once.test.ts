import { describe, expect, it } from "vitest";
import { loadOnce } from "../../src/client/load-once";

describe("a module loaded once", () => {
  it("loads at the first call and gives every call the same promise", async () => {
    let loads = 0;
    const load = loadOnce(async () => ({ n: ++loads }));
    expect(loads).toBe(0);
    const [a, b] = [load(), load()];
    expect(a).toBe(b);
    expect(await load()).toEqual({ n: 1 });
    expect(loads).toBe(1);
  });
});
