#!/usr/bin/env python3
"""A random bot for Salient's external bot protocol (docs/bot-protocol.md), standard library only.

stdin/stdout (default): one JSON message per line each way; logs go to stderr.
    npm run salient -- play --seat Axis="cmd:python3 examples/bots/random_bot.py"
HTTP: python3 examples/bots/random_bot.py --http 8765 [--host 127.0.0.1], then seat the bot as
    http://127.0.0.1:8765/bot
Each game over HTTP is told apart by the "session" field Salient puts in every message.
"""
import argparse
import json
import random
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

NAME = "example-random-py"
VERSION = "1"


class Player:
    """One game's state: a generator seeded from the seat, so the same seat plays the same way."""

    def __init__(self):
        self.rng = random.Random(0)

    def answer(self, msg):
        kind = msg.get("type")
        if kind == "hello":
            self.rng = random.Random(msg["seat"])
            return {"type": "hello", "name": NAME, "version": VERSION, "games": ["*"]}
        if kind == "decide":
            return {"type": "choice", "index": self.rng.randrange(len(msg["options"]))}
        return None  # "end" needs no answer


def serve_stdio():
    player = Player()
    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        if msg.get("type") == "end":
            break
        out = player.answer(msg)
        if out is not None:
            sys.stdout.write(json.dumps(out) + "\n")
            sys.stdout.flush()


def serve_http(host, port):
    players = {}
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            length = int(self.headers.get("content-length") or 0)
            msg = json.loads(self.rfile.read(length))
            session = msg.get("session", "")
            with lock:
                if msg.get("type") == "hello":
                    players[session] = Player()
                player = players.get(session)
                if msg.get("type") == "end":
                    players.pop(session, None)
            if player is None:
                self.reply(400, {"error": "unknown session; send hello first"})
                return
            out = player.answer(msg)
            self.reply(200, out if out is not None else {})

        def reply(self, status, body):
            data = json.dumps(body).encode("utf-8")
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass  # keep stderr quiet

    server = ThreadingHTTPServer((host, port), Handler)
    print(f"{NAME} listening on http://{host}:{server.server_port}/bot", file=sys.stderr, flush=True)
    server.serve_forever()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--http", type=int, metavar="PORT", help="serve the protocol over HTTP on PORT (0: any free port)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on with --http (default 127.0.0.1)")
    args = parser.parse_args()
    if args.http is None:
        serve_stdio()
    else:
        serve_http(args.host, args.http)


if __name__ == "__main__":
    main()
