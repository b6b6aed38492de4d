"""The showcase's OpenTelemetry, as a real OTLP/HTTP receiver sees it.

A receiver here decodes what the showcase exports (protobuf, with the
official opentelemetry-proto definitions). The official MCP Python SDK's
client, traced by the OpenTelemetry SDK, injects its span's context into
each request's `_meta` (SEP-414); the server's spans must be its
children. Checked: span names, kind, attributes, the parent, the status
code without `error.type` on a -32602, the resource's service name, the
operation histogram's unit, buckets and counts, the session histogram
once a session ends, and everything flushed at shutdown.

Usage:
  python otel.py <showcase binary> stdio   end of stdin: every span and
                                           metric is sent on the way out
  python otel.py <showcase binary> http    sessions and stateless requests,
                                           exported while serving; SIGTERM
  python otel.py <showcase binary> traces  traces alone, exported at SIGTERM
  python otel.py <showcase binary> silent  no endpoint set: nothing is sent
  python otel.py <showcase binary> hostile client text a mebibyte long in a
                                           method, a URI and an id: each span
                                           exported under 4 KiB
  python otel.py <with_rmcp binary> rmcp   the rmcp example: its own tool's
                                           span, and none of rmcp's
"""

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import anyio
from mcp import Client, StdioServerParameters, types
from opentelemetry import trace
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
    ExportMetricsServiceRequest,
    ExportMetricsServiceResponse,
)
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.trace.v1.trace_pb2 import Span, Status
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from checks import check, summary

BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]
SERVICE = "showcase-under-test"
# An argument value: it must never be exported.
SECRET = "fn secret_value_4711() {}"

# The client's own spans, whose contexts it injects into `_meta`.
client_spans = InMemorySpanExporter()
provider = TracerProvider()
provider.add_span_processor(SimpleSpanProcessor(client_spans))
trace.set_tracer_provider(provider)


class Receiver:
    """An OTLP/HTTP receiver: what arrives at /v1/traces and /v1/metrics,
    decoded."""

    def __init__(self, port=0):
        self.spans = []  # (resource attributes, span)
        self.metrics = []  # (resource attributes, metric)
        self.requests = 0
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                with receiver.lock:
                    receiver.requests += 1
                    if self.path == "/v1/traces":
                        request = ExportTraceServiceRequest.FromString(body)
                        for rs in request.resource_spans:
                            resource = attributes(rs.resource.attributes)
                            for ss in rs.scope_spans:
                                receiver.spans.extend((resource, s) for s in ss.spans)
                        answer = ExportTraceServiceResponse()
                    else:
                        request = ExportMetricsServiceRequest.FromString(body)
                        for rm in request.resource_metrics:
                            resource = attributes(rm.resource.attributes)
                            for sm in rm.scope_metrics:
                                receiver.metrics.extend((resource, m) for m in sm.metrics)
                        answer = ExportMetricsServiceResponse()
                reply = answer.SerializeToString()
                self.send_response(200)
                self.send_header("content-type", "application/x-protobuf")
                self.send_header("content-length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.endpoint = f"http://127.0.0.1:{self.server.server_address[1]}"

    def named(self, name):
        with self.lock:
            return [s for _, s in self.spans if s.name == name]

    def histograms(self, name):
        """The data points of every export of histogram `name`."""
        with self.lock:
            return [(m, p) for _, m in self.metrics if m.name == name for p in m.histogram.data_points]


def value(any_value):
    kind = any_value.WhichOneof("value")
    return getattr(any_value, kind) if kind else None


def attributes(key_values):
    return {kv.key: value(kv.value) for kv in key_values}


def wait_for(what, condition, seconds=20):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def server_env(receiver, **more):
    env = dict(os.environ)
    for key in list(env):
        if key.startswith("OTEL_"):
            del env[key]
    env.update(
        {
            "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.endpoint,
            "OTEL_SERVICE_NAME": SERVICE,
            "RUST_LOG": "warn",
        }
    )
    env.update(more)
    return env


def client_span(name):
    found = [s for s in client_spans.get_finished_spans() if s.name == name]
    assert found, [s.name for s in client_spans.get_finished_spans()]
    return found[-1]


class User:
    """Answers the showcase's deployment question, keeping the `_meta` it
    came with."""

    def __init__(self):
        self.metas = []

    async def __call__(self, context, params):
        self.metas.append(dict(params.meta or {}))
        return types.ElicitResult(action="accept", content={"environment": "production", "canary": False})


async def exercise(server, mode, user=None):
    """What each client asks: a prompt, an unknown prompt, the listing;
    with `user`, a prompt that asks its user a question."""
    async with Client(server, mode=mode, elicitation_callback=user) as c:
        if user is not None:
            r = await c.get_prompt("deploy_notes", {"service": "db"})
            assert "production" in str(r.messages), r
        r = await c.get_prompt("code_review", {"code": SECRET, "language": "rust"})
        assert r.messages, r
        try:
            await c.get_prompt("no_such_prompt", {})
        except Exception as err:  # noqa: BLE001 - the error is the point
            assert "no_such_prompt" in str(err), err
        else:
            raise AssertionError("an unknown prompt was served")
        await c.list_prompts()


def check_request_spans(receiver, transport, version):
    """The spans of one `exercise`, as the conventions name them."""
    gets = [s for s in receiver.named("prompts/get code_review") if version_of(s) == version]
    assert gets, [s.name for _, s in receiver.spans]
    span = gets[-1]
    a = attributes(span.attributes)
    assert span.kind == Span.SPAN_KIND_SERVER, span.kind
    assert a["mcp.method.name"] == "prompts/get", a
    assert a["gen_ai.prompt.name"] == "code_review", a
    assert a["network.transport"] == transport, a
    # The id's value as a string, not its JSON text.
    assert isinstance(a["jsonrpc.request.id"], str) and '"' not in a["jsonrpc.request.id"], a
    assert "error.type" not in a and "rpc.response.status_code" not in a, a
    assert span.status.code == Status.STATUS_CODE_UNSET, span.status
    # Argument values are never exported.
    assert SECRET not in str(span), span
    if transport == "tcp":
        assert a["network.protocol.name"] == "http", a
        assert a["network.protocol.version"] == "1.1", a
        assert a["client.address"] == "127.0.0.1", a
        assert isinstance(a["client.port"], int) and a["client.port"] > 0, a
    # The parent is the client span whose context `_meta` carried.
    sent = client_span("MCP send prompts/get code_review")
    matching = [
        s
        for s in gets
        if s.trace_id == sent.context.trace_id.to_bytes(16, "big")
        and s.parent_span_id == sent.context.span_id.to_bytes(8, "big")
    ]
    assert matching, (sent.context, [(s.trace_id.hex(), s.parent_span_id.hex()) for s in gets])

    # An unknown prompt: the caller's mistake. Its name (client input)
    # names neither the span nor an attribute.
    unknown = [s for s in receiver.named("prompts/get") if version_of(s) == version]
    assert unknown, [s.name for _, s in receiver.spans]
    a = attributes(unknown[-1].attributes)
    assert a["rpc.response.status_code"] == "-32602", a
    assert "error.type" not in a and "gen_ai.prompt.name" not in a, a
    assert unknown[-1].status.code == Status.STATUS_CODE_UNSET, unknown[-1].status
    assert not any("no_such_prompt" in s.name for _, s in receiver.spans)
    listed = [s for s in receiver.named("prompts/list") if version_of(s) == version]
    assert listed and listed[-1].kind == Span.SPAN_KIND_SERVER, listed
    if version != "2026-07-28":
        # A session's client notifications are spans too, with no request id.
        (initialized, *_) = receiver.named("notifications/initialized")
        assert initialized.kind == Span.SPAN_KIND_SERVER, initialized.kind
        assert "jsonrpc.request.id" not in attributes(initialized.attributes), initialized
    resources = {r.get("service.name") for r, _ in receiver.spans}
    assert resources == {SERVICE}, resources


def version_of(span):
    return attributes(span.attributes).get("mcp.protocol.version")


def check_operation_metric(receiver, transport):
    points = receiver.histograms("mcp.server.operation.duration")
    assert points, [m.name for _, m in receiver.metrics]
    metric = points[0][0]
    assert metric.unit == "s", metric.unit
    assert all(list(p.explicit_bounds) == BUCKETS for _, p in points), points[0][1].explicit_bounds
    gets = [
        p
        for _, p in points
        if attributes(p.attributes).get("mcp.method.name") == "prompts/get"
        and attributes(p.attributes).get("gen_ai.prompt.name") == "code_review"
    ]
    assert gets and max(p.count for p in gets) >= 1, gets
    a = attributes(gets[0].attributes)
    assert a["network.transport"] == transport, a
    for key in ["jsonrpc.request.id", "mcp.session.id", "client.address"]:
        assert key not in a, a
    errors = [
        p
        for _, p in points
        if attributes(p.attributes).get("rpc.response.status_code") == "-32602"
    ]
    assert errors, "no -32602 data point"
    assert all("error.type" not in attributes(p.attributes) for p in errors), errors
    for _, p in points:
        assert "no_such_prompt" not in str(p.attributes), p.attributes
        assert sum(p.bucket_counts) == p.count, p


def check_session_metric(receiver, transport):
    points = receiver.histograms("mcp.server.session.duration")
    assert points, [m.name for _, m in receiver.metrics]
    metric, point = points[-1]
    assert metric.unit == "s", metric.unit
    assert list(point.explicit_bounds) == BUCKETS, point.explicit_bounds
    assert point.count >= 1, point
    a = attributes(point.attributes)
    assert a["mcp.protocol.version"] == "2025-11-25", a
    assert a["network.transport"] == transport, a


async def stdio(binary):
    receiver = Receiver()
    # Exported only at the end: a long interval and delay, so what arrives
    # is what the end of stdin flushed.
    env = server_env(receiver, OTEL_BSP_SCHEDULE_DELAY="600000", OTEL_METRIC_EXPORT_INTERVAL="600000")
    server = StdioServerParameters(command=binary, args=[], env=env)
    user = User()

    async def exercised():
        await exercise(server, "legacy", user)

    await check("stdio: a client traced by the OpenTelemetry SDK asks four things", exercised)

    async def flushed():
        wait_for("the spans", lambda: receiver.named("prompts/list"))
        wait_for("the session metric", lambda: receiver.histograms("mcp.server.session.duration"))

    await check("stdio: the end of stdin flushes every span and metric", flushed)
    await check("stdio: spans named, kinded and parented as the conventions say", spans(receiver, "pipe", "2025-11-25"))
    await check("stdio: the operation histogram in seconds, with the conventions' buckets", metric(receiver, "pipe"))
    await check("stdio: the session histogram once stdin ends", session(receiver, "pipe"))

    async def asked():
        # The question is a CLIENT span, the child of the request that asks,
        # and its context is in the question's `_meta`.
        (get,) = receiver.named("prompts/get deploy_notes")
        (question,) = receiver.named("elicitation/create")
        assert question.kind == Span.SPAN_KIND_CLIENT, question.kind
        assert question.trace_id == get.trace_id and question.parent_span_id == get.span_id, question
        assert attributes(question.attributes)["mcp.method.name"] == "elicitation/create"
        (meta,) = user.metas
        version, trace_id, parent, flags = meta["traceparent"].split("-")
        assert (trace_id, parent) == (question.trace_id.hex(), question.span_id.hex()), meta

    await check("stdio: the server's question carries its CLIENT span's context in `_meta`", asked)


def spans(receiver, transport, version):
    async def body():
        check_request_spans(receiver, transport, version)

    return body


def metric(receiver, transport):
    async def body():
        check_operation_metric(receiver, transport)

    return body


def session(receiver, transport):
    async def body():
        check_session_metric(receiver, transport)

    return body


def start_http(binary, env, *flags):
    process = subprocess.Popen(
        [binary, "--http", "127.0.0.1:0", *flags], env=env, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    for line in process.stderr:
        found = re.search(r"http://[^ ;]+/mcp", line)
        if found:
            threading.Thread(target=lambda: [None for _ in process.stderr], daemon=True).start()
            return process, found.group(0)
    raise AssertionError(f"the showcase did not start: {process.wait()}")


async def http(binary):
    receiver = Receiver()
    env = server_env(receiver, OTEL_BSP_SCHEDULE_DELAY="100", OTEL_METRIC_EXPORT_INTERVAL="300")
    process, url = start_http(binary, env, "--prompts-as-tools")
    try:
        await check("http: a session (legacy) asks three things", lambda: exercise(url, "legacy"))

        async def exported():
            # Sent while serving, as the variables' delay and interval say.
            wait_for("the session's spans", lambda: receiver.named("prompts/list"))
            wait_for(
                "the session metric after DELETE",
                lambda: receiver.histograms("mcp.server.session.duration"),
            )

        await check("http: spans and the session metric arrive while serving", exported)
        await check("http: session spans as the conventions say", spans(receiver, "tcp", "2025-11-25"))
        await check("http: the session histogram once the client ends its session", session(receiver, "tcp"))
        await check("http: stateless (2026-07-28) requests", lambda: exercise(url, "auto"))

        async def stateless_spans():
            # The last of the three requests.
            wait_for(
                "the stateless spans",
                lambda: [s for s in receiver.named("prompts/list") if version_of(s) == "2026-07-28"],
            )
            check_request_spans(receiver, "tcp", "2026-07-28")
            sessions = [
                attributes(s.attributes).get("mcp.session.id")
                for s in receiver.named("prompts/get code_review")
            ]
            assert sessions[0] and sessions[-1] is None, sessions

        await check("http: stateless spans, with no session", stateless_spans)
        await check("http: the operation histogram", metric(receiver, "tcp"))

        async def header_context_is_a_link():
            # A proxy's trace headers on the HTTP request: a link, not the
            # parent (MCP's context is the one in `_meta`).
            proxy_trace, proxy_span = "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331"
            body = {
                "jsonrpc": "2.0",
                "id": "linked",
                "method": "prompts/list",
                "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                                     "io.modelcontextprotocol/clientCapabilities": {}}},
            }
            headers = {
                "accept": "application/json, text/event-stream",
                "mcp-protocol-version": "2026-07-28",
                "mcp-method": "prompts/list",
                "traceparent": f"00-{proxy_trace}-{proxy_span}-01",
            }
            headers["content-type"] = "application/json"
            request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers)
            with urllib.request.urlopen(request, timeout=20) as answer:
                assert answer.status == 200, answer.read()

            def linked():
                return [
                    s
                    for s in receiver.named("prompts/list")
                    if attributes(s.attributes).get("jsonrpc.request.id") == "linked"
                ]

            wait_for("the linked span", linked)
            (span,) = linked()
            assert span.trace_id.hex() != proxy_trace, span
            assert [(l.trace_id.hex(), l.span_id.hex()) for l in span.links] == [(proxy_trace, proxy_span)], span.links

        await check("http: an HTTP request's trace headers are a link, not the parent", header_context_is_a_link)

        async def tools():
            async with Client(url, mode="legacy") as c:
                r = await c.call_tool("get_prompt", {"name": "code_review", "arguments": {}})
                assert r.is_error, r
            wait_for("the tool span", lambda: receiver.named("tools/call get_prompt"))
            (span,) = receiver.named("tools/call get_prompt")
            a = attributes(span.attributes)
            assert a["gen_ai.tool.name"] == "get_prompt", a
            assert a["gen_ai.operation.name"] == "execute_tool", a
            assert a["error.type"] == "tool_error", a
            assert "rpc.response.status_code" not in a, a

        await check("http: a prompt tool's isError result is a tool_error", tools)
    finally:
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=30)

    async def terminated():
        assert code == 0, code

    await check("http: SIGTERM stops the server, exit 0", terminated)


async def traces(binary):
    """Traces alone, RUST_LOG at warn, spans exported only at the end:
    the spans still carry what HTTP tells of them, and SIGTERM flushes."""
    receiver = Receiver()
    env = server_env(receiver, OTEL_METRICS_EXPORTER="none", OTEL_BSP_SCHEDULE_DELAY="600000")
    process, url = start_http(binary, env)
    try:
        await check("traces: a session asks three things", lambda: exercise(url, "legacy"))
    finally:
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=30)

    async def flushed():
        assert code == 0, code
        wait_for("the spans SIGTERM flushed", lambda: receiver.named("prompts/list"), seconds=5)
        (span,) = receiver.named("prompts/get code_review")
        a = attributes(span.attributes)
        assert a["network.transport"] == "tcp" and a["client.address"] == "127.0.0.1", a
        assert a.get("mcp.session.id"), a
        assert not receiver.metrics, [m.name for _, m in receiver.metrics]

    await check("traces: SIGTERM flushes the spans, with HTTP's attributes and no metric", flushed)


MIB = 1 << 20


def cut(text):
    """`text` as the server's log lines and span attributes give client
    text: its first 64 characters and its length in bytes."""
    return f"{text[:64]}…({len(text.encode())} bytes)"


async def hostile(binary):
    """Client text a mebibyte long (an unknown method, a notification's
    method, a resource URI, a request id) is cut in the spans as in the
    log lines: each exported span stays under 4 KiB."""
    receiver = Receiver()
    env = server_env(receiver, OTEL_METRICS_EXPORTER="none", OTEL_BSP_SCHEDULE_DELAY="600000")
    method, notification = "m" * MIB, "notifications/" + "n" * MIB
    uri, big_id = "skill://" + "u" * MIB, "i" * MIB
    messages = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "h", "version": "1"}},
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": method},
        {"jsonrpc": "2.0", "id": 3, "method": "resources/read", "params": {"uri": uri}},
        {"jsonrpc": "2.0", "id": big_id, "method": "ping"},
        {"jsonrpc": "2.0", "method": notification},
        {"jsonrpc": "2.0", "id": 4, "method": "ping"},
    ]
    process = subprocess.Popen(
        [binary], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    lines = "".join(json.dumps(m) + "\n" for m in messages).encode()

    async def answered():
        # Written and read at once: a 1 MiB answer would otherwise block both.
        out, _ = process.communicate(input=lines, timeout=60)
        assert process.returncode == 0, process.returncode
        ids = [a.get("id") for a in map(json.loads, out.splitlines())]
        ids = ["(the long id)" if i == big_id else i for i in ids]
        assert ids == [1, 2, 3, "(the long id)", 4], ids

    await check("hostile: four requests and a notification a mebibyte long are answered", answered)

    async def exported():
        def arrived():
            return len(receiver.named("_OTHER")) == 2 and len(receiver.named("ping")) == 2 and receiver.named("resources/read")

        wait_for("the spans the end of stdin flushed", arrived)
        spans = receiver.named("_OTHER") + receiver.named("resources/read") + receiver.named("ping")
        sizes = [(s.name, len(s.SerializeToString())) for s in spans]
        assert all(size < 4096 for _, size in sizes), sizes
        methods = sorted(attributes(s.attributes)["mcp.method.name"] for s in receiver.named("_OTHER"))
        assert methods == sorted([cut(method), cut(notification)]), [m[:80] for m in methods]
        (read,) = receiver.named("resources/read")
        recorded = attributes(read.attributes)["mcp.resource.uri"]
        assert recorded == cut(uri), recorded[:80]
        ids = sorted(attributes(s.attributes)["jsonrpc.request.id"] for s in receiver.named("ping"))
        assert ids == ["4", cut(big_id)], [i[:80] for i in ids]

    await check("hostile: each span exports under 4 KiB, its client text cut as in the log", exported)


async def silent(binary):
    # Where the exporters would send by default.
    receiver = Receiver(4318)
    env = server_env(receiver)
    del env["OTEL_EXPORTER_OTLP_ENDPOINT"]
    server = StdioServerParameters(command=binary, args=[], env=env)
    await check("silent: the client is served", lambda: exercise(server, "legacy"))

    async def nothing():
        time.sleep(1)
        assert receiver.requests == 0, receiver.requests

    await check("silent: nothing is sent without OTEL_EXPORTER_OTLP_ENDPOINT", nothing)


async def rmcp(binary):
    """The rmcp example over rmcp's own stdio: the prompts' spans and its
    own tool's (through `serve_tool_call`) in the conventions, and none of
    rmcp's internal spans (its service loop would be a root span with no
    attribute)."""
    receiver = Receiver()
    env = server_env(receiver, OTEL_BSP_SCHEDULE_DELAY="600000", OTEL_METRIC_EXPORT_INTERVAL="600000")
    server = StdioServerParameters(command=binary, args=[], env=env)

    async def exercised():
        async with Client(server, mode="legacy") as c:
            r = await c.get_prompt("code_review", {"code": SECRET, "language": "rust"})
            assert r.messages, r
            r = await c.call_tool("word_count", {"text": "one two three"})
            assert "3 words" in str(r.content), r

    await check("rmcp: a prompt and rmcp's own tool", exercised)

    async def tool_span():
        wait_for("the spans", lambda: receiver.named("tools/call word_count"))
        (span,) = receiver.named("tools/call word_count")
        assert span.kind == Span.SPAN_KIND_SERVER, span.kind
        a = attributes(span.attributes)
        assert a["mcp.method.name"] == "tools/call", a
        assert a["gen_ai.tool.name"] == "word_count", a
        assert a["gen_ai.operation.name"] == "execute_tool", a
        assert "error.type" not in a, a
        ((_, tool),) = [(m, p) for m, p in receiver.histograms("mcp.server.operation.duration")
                        if attributes(p.attributes).get("gen_ai.tool.name") == "word_count"]
        assert tool.count == 1, tool
        assert receiver.named("prompts/get code_review"), [s.name for _, s in receiver.spans]

    await check("rmcp: the tool call is a span `tools/call word_count`, and a metric", tool_span)

    async def only_ours():
        others = [s.name for _, s in receiver.spans if "mcp.method.name" not in attributes(s.attributes)]
        assert not others, others

    await check("rmcp: rmcp's internal spans are not exported", only_ours)


async def main(binary, route):
    routes = {"stdio": stdio, "http": http, "traces": traces, "silent": silent, "hostile": hostile, "rmcp": rmcp}
    await routes[route](binary)
    sys.exit(0 if summary() else 1)


if __name__ == "__main__":
    anyio.run(main, sys.argv[1], sys.argv[2])
