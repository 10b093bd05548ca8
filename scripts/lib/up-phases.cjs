/**
 * Splits the events of `pulumi up` (without --skip-preview) into its two
 * engine runs, each beginning with a prelude event: the preview's go to
 * `preview`, the update's to `update`. The update starts only after the
 * preview succeeded, so when it starts `previewSucceeded` gets the preview's
 * change summary (from its summary event). CommonJS, so that
 * scripts/stack-op.mjs imports it and test/e2e/programs/packed-runner.cjs,
 * copied into program directories beside it, requires it.
 */
function upPhases({ preview, update, previewSucceeded }) {
  let preludes = 0;
  let previewSummary = {};
  return (event) => {
    if (event.preludeEvent) {
      preludes += 1;
      if (preludes === 2) previewSucceeded(previewSummary);
    }
    if (preludes >= 2) return update(event);
    if (event.summaryEvent) previewSummary = event.summaryEvent.resourceChanges ?? {};
    preview(event);
  };
}

module.exports = { upPhases };
