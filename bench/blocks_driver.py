"""Times apply-edit-block's apply_edit in-process, for bench/blocks.mjs.

Run with the Python of the oracle's virtual environment (where PyPI
apply-edit-block 0.1.0 is installed). Reads {"cases": [{"source", "search",
"replace", "reps"}]} as JSON on stdin; prints, per case, the median time of
the apply_edit call alone (perf_counter, milliseconds) and its result.
"""
import json
import statistics
import sys
import time

from apply_edit_block import apply_edit


def main():
    request = json.load(sys.stdin)
    out = []
    for case in request["cases"]:
        edit = {"search": case["search"], "replace": case["replace"]}
        times = []
        result = None
        for _ in range(case["reps"]):
            t = time.perf_counter()
            result = apply_edit(case["source"], edit)
            times.append((time.perf_counter() - t) * 1000.0)
        out.append({
            "ms": statistics.median(times),
            "ok": result.ok,
            "strategy": result.strategy,
            "similarity": result.similarity,
            "start": result.start,
            "end": result.end,
            "text": result.text,
        })
    json.dump(out, sys.stdout, ensure_ascii=False)


main()
