"""A small Tile Arena client for bots, standard library only (Python 3.8+).

Registers a bot, starts games as it, plays through the long-poll sync or the NDJSON streams, and waits out
Retry-After on 429 and 503. Copy this file next to your bot.
"""
import json
import random
import time
import urllib.error
import urllib.parse
import urllib.request


class ApiError(Exception):
    def __init__(self, status, problem):
        super().__init__(f"{status} {problem.get('code', '')}: {problem.get('detail', '')}")
        self.status = status
        self.problem = problem


class TileArena:
    def __init__(self, base_url="http://localhost:2567", key=None):
        self.base_url = base_url.rstrip("/")
        self.key = key

    def call(self, method, path, body=None, token=None, retries=5):
        """One API call; a 429 or 503 is retried after its Retry-After."""
        auth = token or self.key
        data = None if body is None else json.dumps(body).encode()
        for attempt in range(retries + 1):
            req = urllib.request.Request(self.base_url + "/api/v1" + path, data=data, method=method)
            if data is not None:
                req.add_header("content-type", "application/json")
            if auth:
                req.add_header("authorization", "Bearer " + auth)
            try:
                with urllib.request.urlopen(req, timeout=60) as res:
                    return json.loads(res.read())
            except urllib.error.HTTPError as e:
                if e.code in (429, 503) and attempt < retries:
                    time.sleep(float(e.headers.get("retry-after", "1")))
                    continue
                raise ApiError(e.code, json.loads(e.read() or b"{}")) from None

    def register_bot(self, name, owner=None):
        """Registers a bot and keeps its key (shown once: store it)."""
        out = self.call("POST", "/bots", {"name": name, **({"owner": owner} if owner else {})})
        self.key = out["key"]
        return out

    def create_game(self, opponent="house", level="easy", ruleset="classic"):
        return self.call("POST", "/games", {"opponent": opponent, "level": level, "ruleset": ruleset})

    def join(self, code):
        return self.call("POST", "/games/join", {"code": code})

    def challenge(self, bot_id, ruleset="classic"):
        return self.call("POST", "/bots/%s/challenge" % bot_id, {"ruleset": ruleset})

    def decline(self, code):
        """Declines a challenge (the `code` of a `challenge` event): its game is aborted and the challenger told."""
        return self.call("POST", "/bots/challenges/%s/decline" % urllib.parse.quote(code, safe=""))

    def sync(self, game_id, token, since=0, timeout=20):
        return self.call("GET", "/games/%s/sync?since=%d&timeout=%d" % (game_id, since, timeout), token=token)

    def move(self, game_id, token, move):
        return self.call("POST", "/games/%s/moves" % game_id, {"move": move}, token=token)

    def rules(self):
        return self.call("GET", "/rules")

    def play(self, seated, policy):
        """Plays a seat to the end: `policy(view)` returns one of view["legalMoves"] on the seat's turn."""
        game_id, token, since = seated["game"]["id"], seated["playerToken"], 0
        while True:
            view = self.sync(game_id, token, since)
            since = view["moveCount"]
            if view["status"] == "finished":
                return view
            if view["yourTurn"]:
                self.move(game_id, token, policy(view)["move"])

    def stream(self, path, token=None, last_event_id=None):
        """Yields the objects of an NDJSON stream (/stream/events with the key, /stream/games/{id})."""
        req = urllib.request.Request(self.base_url + "/api/v1" + path)
        if token or self.key:
            req.add_header("authorization", "Bearer " + (token or self.key))
        if last_event_id:
            req.add_header("last-event-id", last_event_id)
        with urllib.request.urlopen(req) as res:
            for line in res:
                if line.strip():  # an empty line is a heartbeat
                    yield json.loads(line)


def random_move(view):
    """The starter policy: any legal move."""
    return random.choice(view["legalMoves"])


_STEPS = {"n": (0, 1), "e": (1, 0), "s": (0, -1), "w": (-1, 0)}
_OPPOSITE = {"n": "s", "e": "w", "s": "n", "w": "e"}


def greedy_move(view):
    """A greedy policy: the move whose card beats the most opponent cards it touches by the basic rule
    (edge against facing edge; chess tiles, champions and mutators are left out), ties to the first listed."""
    state = view["state"]
    board = {c["square"]: c for c in state["board"]}
    hand = {c["id"]: c for c in state["hand"]}

    def flips(m):
        ranks = hand[m["card"]]["ranks"]
        file, rank = ord(m["square"][0]) - 97, int(m["square"][1]) - 1
        count = 0
        for edge, (df, dr) in _STEPS.items():
            other = board.get("%s%d" % (chr(97 + file + df), rank + dr + 1))
            if other and other["owner"] != view["seat"] and ranks[edge] > other["ranks"][_OPPOSITE[edge]]:
                count += 1
        return count

    return max(view["legalMoves"], key=flips)
