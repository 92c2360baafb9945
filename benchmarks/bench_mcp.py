"""MCP round-trip latency over stdio: ``get_layout_metrics``, ``apply_edits``, ``render_preview``.

Run: ``python -m benchmarks.bench_mcp`` (prints the rows); ``benchmarks/run.py``
calls ``run()``. A real ``layout-assistant serve`` subprocess is driven over
its stdin/stdout by a minimal JSON-RPC client (initialize, then
``tools/call`` requests, one at a time), so every figure is the server's
wall-clock round trip including JSON-RPC framing, pipe transfer, argument
validation and result serialisation — and excludes any client library's own
costs (the Python MCP client re-validates structured results with
``jsonschema``, which alone can take longer than the call). The document is a
seeded 50-element catalogue page (a background, a title and twelve cards of
image, heading, body and caption). p50/p95 over ``CALLS`` calls
(``PREVIEW_CALLS`` for previews) after two warm-up calls. Wall-clock figures
rise on a busy machine, so each row also gives the server process's CPU time
per call (user + system, all threads, from ``/proc``), which does not.

Rows: ``get_layout_metrics`` (the report of the current revision is cached
by the server, as it is after every edit), ``get_layout_metrics (fresh)``
(every metric recomputed: ``checks`` names them all), ``apply_edits`` (one
move with ``expected_revision``; includes re-scoring the layout) and
``render_preview`` at 1024 px with box overlays.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

CALLS = 60
PREVIEW_CALLS = 15
TARGETS_MS = {"get_layout_metrics": 20.0, "apply_edits": 20.0, "render_preview": 300.0}


def catalogue_svg(seed: int = 0) -> str:
    """A seeded A4-proportioned page that imports as 50 layout elements."""
    import random

    rng = random.Random(seed)
    W, H = 794, 1123
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}">',
             f'<rect id="bg" data-role="background" x="0" y="0" width="{W}" height="{H}" fill="#fafafa"/>',
             '<text id="title" x="60" y="110" font-family="DejaVu Sans" font-size="48" font-weight="700" '
             'fill="#111111">Autumn catalogue</text>']
    cols, cw, ch, top = 3, 224.0, 240.0, 160.0
    for k in range(12):
        r, c = divmod(k, cols)
        x = 60 + c * cw + rng.uniform(-4, 4)
        y = top + r * ch + rng.uniform(-3, 3)
        parts += [
            f'<rect id="img-{k}" data-role="image" x="{x:.1f}" y="{y:.1f}" width="200" height="120" fill="#9ab"/>',
            f'<text id="head-{k}" x="{x:.1f}" y="{y + 148:.1f}" font-family="DejaVu Sans" font-size="18" '
            f'font-weight="700" fill="#222222">Item {k + 1}</text>',
            f'<text id="body-{k}" x="{x:.1f}" y="{y + 172:.1f}" font-family="DejaVu Sans" font-size="12" '
            f'fill="#333333">Short description {k + 1}</text>',
            f'<text id="cap-{k}" x="{x:.1f}" y="{y + 192:.1f}" font-family="DejaVu Sans" font-size="10" '
            f'fill="#555555">Ref {1000 + k}</text>',
        ]
    parts.append("</svg>")
    return "\n".join(parts)


def _server_command(workspace: Path) -> list[str]:
    script = Path(sys.executable).parent / "layout-assistant"
    if script.exists():
        return [str(script), "serve", "--workspace", str(workspace)]
    return [sys.executable, "-c", "from assistant.cli import main; main()", "serve", "--workspace", str(workspace)]


class StdioRpc:
    """A minimal MCP client over a server subprocess's stdin/stdout (newline-delimited JSON-RPC)."""

    def __init__(self, command: list[str], cwd: Path) -> None:
        env = dict(os.environ)
        repo = str(Path(__file__).resolve().parents[1])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (repo, env.get("PYTHONPATH", "")) if p)
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, cwd=cwd, env=env, text=True, bufsize=1)
        self._id = 0
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "bench-mcp", "version": "1"}})
        self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Send a JSON-RPC request and return its result, skipping the notifications before it."""
        self._id += 1
        self._send({"jsonrpc": "2.0", "id": self._id, "method": method, "params": params})
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the MCP server closed its output")
            message = json.loads(line)
            if message.get("id") == self._id:
                if "error" in message:
                    raise RuntimeError(f"{method} failed: {message['error']}")
                return message["result"]

    def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """Call an MCP tool and return its result; ``RuntimeError`` when the tool reports an error."""
        result = self.request("tools/call", {"name": tool, "arguments": arguments})
        if result.get("isError"):
            raise RuntimeError(f"{tool} failed: {result['content'][0].get('text')}")
        return result

    def close(self) -> None:
        """Close the server's input and wait for it to exit."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def _cpu_ms(pid: int) -> float | None:
    """CPU time (user + system, all threads) the process ``pid`` has used, in ms (Linux ``/proc``)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) * 1000.0 / os.sysconf("SC_CLK_TCK")


def _time(fn: Callable[[], Any], calls: int, pid: int) -> tuple[list[float], float | None]:
    """Wall-clock ms of each call, and the server's mean CPU ms per call."""
    for _ in range(2):
        fn()
    out = []
    cpu0 = _cpu_ms(pid)
    for _ in range(calls):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000.0)
    cpu1 = _cpu_ms(pid)
    return out, None if cpu0 is None or cpu1 is None else (cpu1 - cpu0) / calls


def _row(operation: str, measured: tuple[list[float], float | None], target: float | None,
         **extra: Any) -> dict[str, Any]:
    times, cpu = measured
    q = statistics.quantiles(times, n=20, method="inclusive")
    return {"operation": operation, "calls": len(times), "p50_ms": statistics.median(times), "p95_ms": q[18],
            "server_cpu_ms_per_call": cpu if cpu is not None else "",
            "target_p50_ms": target if target is not None else "", **extra}


def _measure(workspace: Path) -> list[dict[str, Any]]:
    from assistant.metrics.evaluate import METRIC_NAMES

    rpc = StdioRpc(_server_command(workspace), workspace)
    try:
        doc = rpc.call("open_document", {"path": "catalogue.svg"})["structuredContent"]
        doc_id, n = doc["doc_id"], doc["element_count"]
        pid = rpc.proc.pid
        cached = {"doc_id": doc_id}
        rows = [_row("get_layout_metrics", _time(lambda: rpc.call("get_layout_metrics", cached), CALLS, pid),
                     TARGETS_MS["get_layout_metrics"], elements=n)]
        fresh = {"doc_id": doc_id, "checks": list(METRIC_NAMES)}
        rows.append(_row("get_layout_metrics (fresh)", _time(lambda: rpc.call("get_layout_metrics", fresh), CALLS, pid),
                         None, elements=n))
        state = {"revision": doc["revision"], "sign": 1.0}

        def move() -> None:
            state["sign"] = -state["sign"]
            out = rpc.call("apply_edits", {
                "doc_id": doc_id, "expected_revision": state["revision"],
                "edits": [{"type": "move", "ids": ["img-4"], "dx": 2.0 * state["sign"], "dy": 0.0}]})
            state["revision"] = out["structuredContent"]["revision"]

        rows.append(_row("apply_edits", _time(move, CALLS, pid), TARGETS_MS["apply_edits"], elements=n))
        preview = {"doc_id": doc_id, "max_size": 1024}
        timed = _time(lambda: rpc.call("render_preview", preview), PREVIEW_CALLS, pid)
        rows.append(_row("render_preview 1024 px", timed, TARGETS_MS["render_preview"], elements=n))
        return rows
    finally:
        rpc.close()


def run() -> list[dict[str, Any]]:
    """p50/p95 round-trip latency (ms) of the main tools over stdio on a 50-element page."""
    with tempfile.TemporaryDirectory(prefix="bench-mcp-") as tmp:
        workspace = Path(tmp)
        (workspace / "catalogue.svg").write_text(catalogue_svg(), encoding="utf-8")
        return _measure(workspace)


if __name__ == "__main__":
    for row in run():
        print(row)
