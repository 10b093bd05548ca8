"""`pulumi up` as users run it: one CLI process that previews, then updates
once that preview succeeded. The Automation API's `Stack.up` passes
--skip-preview, so a driver that wanted both ran `pulumi preview` and then
`pulumi up` (two CLI processes, two plugin starts, the program run in each);
`previewing_up` leaves the flag out instead, and `up_phases` splits the one
event stream into the two engine runs, each starting with a prelude event.
"""


def previewing_up(stack):
    """Makes the stack's `up` run the CLI's `pulumi up` without --skip-preview."""
    run = stack._run_pulumi_cmd_sync

    def run_previewing(args, *rest, **options):
        if args[:1] == ["up"]:
            args = [arg for arg in args if arg != "--skip-preview"]
        return run(args, *rest, **options)

    stack._run_pulumi_cmd_sync = run_previewing


def up_phases(on_agent_event):
    """An on_event handler for one `pulumi up`: passes each Agent's pre-event to on_agent_event(phase, event),
    phase "preview" or "update"; the returned dict gets "previewSummary", the preview's change summary,
    once the update starts (never when the preview failed)."""
    state = {"preludes": 0, "summary": None}
    found = {}

    def on_event(event):
        if getattr(event, "prelude_event", None) is not None:
            state["preludes"] += 1
            if state["preludes"] == 2:
                found["previewSummary"] = dict(state["summary"] or {})
            return
        summary = getattr(event, "summary_event", None)
        if summary is not None and state["preludes"] == 1:
            state["summary"] = summary.resource_changes
        on_agent_event("update" if state["preludes"] >= 2 else "preview", event)

    return found, on_event
