/**
 * What the service assigns by itself in an agent's answer, as the mocks
 * report it: the values of the emulator (src/emulator/store.ts,
 * src/emulator/agent-json.ts), the package's model of the service, so a
 * mocked agent and one created against the emulator answer alike
 * (test/integration/mocks-versus-emulator.test.ts holds them together).
 */
import { DEFAULT_NAMESPACE, DEFAULT_SCALING, EMULATOR_API_VERSION } from "../emulator/store";

/** The manifest's own members beside `spec`. */
export const MANIFEST_HEAD = { apiVersion: EMULATOR_API_VERSION, kind: "Agent", namespace: DEFAULT_NAMESPACE };

/** Members of the manifest's `spec` the request does not set. */
export const SPEC_EXTRAS: Readonly<Record<string, unknown>> = { clusterLocal: false };

/**
 * The manifest value the service chooses for a field whose absence from a
 * create means "the service's choice" (undeclared "keep" in the field table).
 */
export const CHOSEN_WHEN_LEFT_OUT: Readonly<Record<string, unknown>> = { autoScaling: DEFAULT_SCALING };
