"""Starter bot, greedy: like random_bot.py, but each turn it plays the move that flips the most cards by the
basic rule. Run: python3 clients/python/greedy_bot.py (same environment as random_bot.py).
"""
import os

from tile_arena import TileArena, greedy_move


def main():
    arena = TileArena(os.environ.get("TILE_ARENA_URL", "http://localhost:2567"), os.environ.get("TILE_ARENA_KEY"))
    if not arena.key:
        out = arena.register_bot("Greedy starter (Python)")
        print("registered %s; keep the key: TILE_ARENA_KEY=%s" % (out["bot"]["id"], out["key"]))
    seated = arena.create_game("house", os.environ.get("LEVEL", "easy"))
    print("game %s, seat %s" % (seated["game"]["id"], seated["seat"]))
    end = arena.play(seated, greedy_move)
    print("result: %s (%s); replay: %s" % (end["result"], end["decision"]["summary"], end["urls"]["replayPage"]))


if __name__ == "__main__":
    main()
