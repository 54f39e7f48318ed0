"""A server's start-up heap kept out of the garbage collector's full collections.

Python's cyclic collector walks every object it tracks in a full collection (its oldest
generation), and a web process's start-up leaves some 150,000 of them: modules, classes,
functions, every view, form and serializer the URLconf imports. One full collection of that
heap took 108 ms of CPU on this machine, during which the process answers nothing, and under
the pub night's load each tables' process ran one or two a minute (100–255 ms each, wall
time): a stall for every move queued there (docs/performance.md, "The collector's full
collections"). `gc.freeze()` moves what exists into a permanent generation that no
collection walks; objects made later are collected as before, and frozen ones are still
freed when nothing refers to them.

Done once a process is ready for its work and before the first request or task: after the
URLconf is loaded (it imports every view), with a collection first so that start-up's own
garbage is freed rather than kept for good.
"""

import gc


def startup_heap_freeze() -> None:
    """Load the URLconf, collect start-up's garbage, and freeze what is left."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 (imports every view: most of the heap)
    gc.collect()
    gc.freeze()
