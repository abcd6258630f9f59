"""Starter bot: registers (or reuses TILE_ARENA_KEY), plays one game against the house with a random legal
move each turn, and prints the result. Run: python3 clients/python/random_bot.py
Environment: TILE_ARENA_URL (default http://localhost:2567), TILE_ARENA_KEY (a bk_... key), LEVEL.
"""
import os

from tile_arena import TileArena, random_move


def main():
    arena = TileArena(os.environ.get("TILE_ARENA_URL", "http://localhost:2567"), os.environ.get("TILE_ARENA_KEY"))
    if not arena.key:
        out = arena.register_bot("Random starter (Python)")
        print("registered %s; keep the key: TILE_ARENA_KEY=%s" % (out["bot"]["id"], out["key"]))
    seated = arena.create_game("house", os.environ.get("LEVEL", "easy"))
    print("game %s, seat %s" % (seated["game"]["id"], seated["seat"]))
    end = arena.play(seated, random_move)
    print("result: %s (%s); replay: %s" % (end["result"], end["decision"]["summary"], end["urls"]["replayPage"]))


if __name__ == "__main__":
    main()
