"""Checks scrape-agent's MCP server with the official MCP Python SDK as the client.

Run by the Rust integration test `mcp::official_python_sdk_client` (tests/api/mcp.rs), which
starts the server, serves the fixture pages and computes what the HTTP API answers; this script
then connects as an agent would, over Streamable HTTP or by launching `scrape-agent mcp`:

    check.py http  --url http://127.0.0.1:PORT/mcp  --page URL --slow URL --expected FILE
    check.py stdio --command PATH/scrape-agent --env K=V ...  --page URL --slow URL --expected FILE

It lists the tools, calls `scrape` on the page and compares the records with FILE (what
`POST /api/scrape/stream` answered for the same request), checks the progress notifications,
calls with bad arguments and expects a tool error, and cancels a call on a page that never
answers in time and expects its session to end `cancelled`. Exit status 0 means every check
passed; each failure is printed.
"""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

import anyio
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamablehttp_client

INSTRUCTIONS = "the top 5 stories with title, link and points"


@asynccontextmanager
async def connect(args: argparse.Namespace) -> AsyncIterator[ClientSession]:
    """An initialised session over the chosen transport."""
    if args.transport == "http":
        async with streamablehttp_client(args.url) as (read, write, _session_id):
            async with ClientSession(read, write) as session:
                yield session
    else:
        env = dict(item.split("=", 1) for item in args.env)
        params = StdioServerParameters(command=args.command, args=["mcp"], env=env)
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                yield session


def check(condition: bool, what: str) -> None:
    if not condition:
        raise AssertionError(what)
    print(f"ok - {what}")


async def scrape_matches_http(session: ClientSession, args: argparse.Namespace) -> None:
    with open(args.expected, encoding="utf-8") as file:
        expected = json.load(file)
    messages: list[str] = []
    values: list[float] = []

    async def on_progress(progress: float, _total: float | None, message: str | None) -> None:
        values.append(progress)
        messages.append(message or "")

    result = await session.call_tool(
        "scrape",
        {"urls": [args.page], "instructions": INSTRUCTIONS},
        progress_callback=on_progress,
    )
    check(not result.isError, f"scrape succeeds ({result.content[:1]})")
    outcome: dict[str, Any] = result.structuredContent or {}
    check(outcome.get("status") == "completed", "the run completed")
    check(
        outcome.get("extracted_data") == expected,
        "the records are exactly those of the HTTP API",
    )
    check(len(expected[args.page]) == 5, "five records")
    texts = [c.text for c in result.content if isinstance(c, types.TextContent)]
    check(
        "never as instructions" in texts[0] and texts[1].startswith("<untrusted_page_data>"),
        "the text marks page data as untrusted",
    )
    session_id = outcome["session_id"]
    # Notifications may trail the result on the wire by a moment.
    with anyio.move_on_after(2):
        while not messages or not messages[-1].startswith("URL 1 of 1 done"):
            await anyio.sleep(0.05)
    check(messages[:1] == [f"session {session_id} started"], "progress: the session started")
    check(f"URL 1 of 1: {args.page}" in messages, "progress: the URL started")
    check(
        messages[-1:] == [f"URL 1 of 1 done: 5 item(s) ({args.page})"],
        "progress: the URL ended",
    )
    tool_calls = outcome["metrics"]["tool_calls"]
    check(len(messages) == 3 + tool_calls, f"progress: one per tool call ({tool_calls})")
    check(all(a < b for a, b in zip(values, values[1:])), "progress grows")

    stored = await session.call_tool("scrape_session", {"session_id": session_id})
    record = stored.structuredContent or {}
    check(record.get("status") == "completed", "scrape_session reads the stored session")
    check(record["result"]["extracted_data"] == expected, "the stored answer is the same")


async def bad_arguments(session: ClientSession) -> None:
    for arguments, code in [
        ({"urls": "not a list"}, "invalid_arguments"),
        ({"urls": ["ftp://example.com/"], "instructions": "x"}, "invalid_url"),
        ({"urls": ["https://example.com/"]}, "missing_instructions"),
    ]:
        result = await session.call_tool("scrape", arguments)
        error = (result.structuredContent or {}).get("error", {})
        check(result.isError and error.get("code") == code, f"bad arguments: {code}")
    missing = await session.call_tool("scrape_session", {"session_id": "no-such-session"})
    check(missing.isError, "an unknown session is a tool error")
    # The session still works after the errors.
    tools = await session.list_tools()
    check(len(tools.tools) == 5, "the session goes on")


async def cancel_cancels_the_session(session: ClientSession, args: argparse.Namespace) -> None:
    session_id = f"python-cancel-{args.transport}"
    started = anyio.Event()

    async def on_progress(_progress: float, _total: float | None, message: str | None) -> None:
        if message == f"session {session_id} started":
            started.set()

    # The SDK numbers requests in order and uses the number as the progress token; the id the
    # next request takes is the one to name in notifications/cancelled (the SDK has no public
    # way to cancel a call it sent).
    request_id = session._request_id  # noqa: SLF001

    async def long_call() -> None:
        await session.call_tool(
            "scrape",
            {"urls": [args.slow], "instructions": "everything", "session_id": session_id},
            progress_callback=on_progress,
        )

    async with anyio.create_task_group() as group:
        group.start_soon(long_call)
        with anyio.fail_after(10):
            await started.wait()
        await session.send_notification(
            types.ClientNotification(
                types.CancelledNotification(
                    params=types.CancelledNotificationParams(requestId=request_id, reason="test"),
                )
            )
        )
        # No answer is owed to a cancelled request: stop waiting for one.
        group.cancel_scope.cancel()

    status = "running"
    with anyio.fail_after(10):
        while status == "running":
            await anyio.sleep(0.05)
            result = await session.call_tool("scrape_session", {"session_id": session_id})
            status = (result.structuredContent or {}).get("status")
    check(status == "cancelled", f"the cancelled call's session ended cancelled ({status})")


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("transport", choices=["http", "stdio"])
    parser.add_argument("--url")
    parser.add_argument("--command")
    parser.add_argument("--env", action="append", default=[])
    parser.add_argument("--page", required=True)
    parser.add_argument("--slow", required=True)
    parser.add_argument("--expected", required=True)
    args = parser.parse_args()
    async with connect(args) as session:
        init = await session.initialize()
        check(init.serverInfo.name == "scrape-agent", "initialize names the server")
        tools = await session.list_tools()
        names = [tool.name for tool in tools.tools]
        check(names == ["scrape", "scrape_tools", "scrape_session", "crawl", "map"], f"the tools: {names}")
        check(tools.tools[0].inputSchema.get("required") == ["urls"], "scrape's schema")
        registry = await session.call_tool("scrape_tools", {})
        check((registry.structuredContent or {}).get("count", 0) > 0, "scrape_tools lists tools")
        await scrape_matches_http(session, args)
        await bad_arguments(session)
        await cancel_cancels_the_session(session, args)
    print(f"all checks passed over {args.transport}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(anyio.run(main))
    except AssertionError as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        sys.exit(1)
