"""An agent in its own process, benchmarked by `spiralbench serve`.

The official `anthropic` package for the model, the official `mcp` package for the
tools, and the run API to start each run and end it with its verdict:

    spiralbench serve -s fetch-transform-write -n 20 -o results/served --arm py-agent
    python examples/serve/agent.py http://127.0.0.1:8788 20
"""

import asyncio
import json
import os
import sys
import urllib.error
import urllib.request

import anthropic
from mcp import ClientSession

# The MCP client's names differ between the package's 1.x and 2.x lines; the protocol is the same.
try:  # mcp 2.x
    from mcp import MCPError as McpError
    from mcp.client.streamable_http import streamable_http_client as http_client
except ImportError:  # mcp 1.8 to 1.x
    from mcp.client.streamable_http import streamablehttp_client as http_client
    from mcp.shared.exceptions import McpError


def field(model, snake, camel):
    """A field of an MCP result: snake_case in mcp 2.x, camelCase in 1.x."""
    return getattr(model, snake) if hasattr(model, snake) else getattr(model, camel)

MAX_TURNS = 30
MODEL_ATTEMPTS = 3


def post(url, body, attempts=1):
    """POST a JSON body to the run API; its JSON answer (an error answer raises).

    With attempts > 1, send it again when the connection drops before an answer."""
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    for attempt in range(1, attempts + 1):
        try:
            with urllib.request.urlopen(request) as response:
                return json.load(response)
        except urllib.error.HTTPError:
            raise
        except (urllib.error.URLError, ConnectionError):
            if attempt == attempts:
                raise


async def call_tool(session, name, arguments):
    """One tool call: its text, and whether it failed."""
    try:
        result = await session.call_tool(name, arguments)
    except McpError as error:
        # A timeout (-32001) or a dropped connection (-32603): the tool's own words.
        return error.error.message, True
    text = "".join(block.text for block in result.content if block.type == "text")
    return text, bool(field(result, "is_error", "isError"))


async def agent_loop(client, session, run, tools):
    """A plain tool-use loop: call the model, run the tools it asks for, until it answers in text."""
    history = list(run["messages"])
    for _ in range(MAX_TURNS):
        reply = None
        for attempt in range(1, MODEL_ATTEMPTS + 1):
            try:
                reply = await client.messages.create(
                    model=run["model"],
                    max_tokens=run["max_tokens"],
                    system=run["system"],
                    messages=history,
                    tools=tools,
                )
                break
            except anthropic.APIError as error:
                # A rate limit, an overloaded or dropped API: try again a few times, then give up.
                if attempt == MODEL_ATTEMPTS:
                    return {"outcome": "failed", "reason": f"model call failed: {error}"}
        history.append({"role": "assistant", "content": reply.content})
        calls = [block for block in reply.content if block.type == "tool_use"]
        if not calls:
            text = "".join(block.text for block in reply.content if block.type == "text")
            return {"outcome": "completed", "final_text": text}
        results = []
        for call in calls:
            text, is_error = await call_tool(session, call.name, call.input)
            result = {"type": "tool_result", "tool_use_id": call.id, "content": text}
            if is_error:
                result["is_error"] = True
            results.append(result)
        history.append({"role": "user", "content": results})
    return {"outcome": "max_iterations"}


async def run_served(serve_url, seed=None):
    """One run: start it, connect the clients to its URLs, run the loop, end it. Returns its record."""
    run = await asyncio.to_thread(post, f"{serve_url}/runs", {} if seed is None else {"seed": seed})
    # serve never reads the key: a real one would be safe, a placeholder does as well.
    client = anthropic.AsyncAnthropic(
        base_url=run["anthropic_base_url"],
        api_key=os.environ.get("ANTHROPIC_API_KEY", "unused"),
        max_retries=0,
    )
    try:
        async with http_client(run["mcp_url"]) as streams:
            async with ClientSession(streams[0], streams[1]) as session:
                await session.initialize()
                listed = await session.list_tools()
                tools = [
                    {"name": tool.name, "description": tool.description or "", "input_schema": field(tool, "input_schema", "inputSchema")}
                    for tool in listed.tools
                ]
                ending = await agent_loop(client, session, run, tools)
    except Exception as error:  # the agent's own crash: the run still ends, as failed
        ending = {"outcome": "failed", "reason": repr(error)}
    # An ending is safe to send again: serve answers the same ending with the same record.
    return await asyncio.to_thread(post, run["end_url"], ending, 3)


async def main(serve_url, runs, concurrency):
    """Every run of the sweep, a few at once."""
    slots = asyncio.Semaphore(concurrency)

    async def one():
        async with slots:
            record = await run_served(serve_url)
            print(f"seed {record['seed']}: {record['verdict']}", flush=True)

    await asyncio.gather(*(one() for _ in range(runs)))


if __name__ == "__main__":
    url = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8788"
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    parallel = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    asyncio.run(main(url.rstrip("/"), count, parallel))
