/**
 * A module loaded at its first use and kept: `import()` compiled to CommonJS
 * (tsc's `__importStar`, the plugin bundle's `__toESM`) builds a new namespace
 * object at every call, copying each export into a getter, so a lazy import on
 * a per-answer or per-resource path pays that at every answer. The first
 * call's promise is returned at every call after it.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
}
