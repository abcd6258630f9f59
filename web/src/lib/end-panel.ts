// The panel shown when a game ends: the result, the rating change of this browser's profile, a rematch
// (offered to the same opponent in friend and quick-match games, rematch.ts; a new game of the same kind and
// settings otherwise), the review and replay pages, and a new game.
import { $, api, el, errorText, plural, seatRequest, storedPlayer, takeSeat, type SeatAnswer, type StoredSeat } from "./api";
import type { GameRecord, Profile } from "./api-types";
import { ratingEl } from "./rating";
import { decidedText, type Seat, type ViewModel } from "./model";
import { RematchOffer } from "./rematch";

export function endTitle(m: ViewModel, mySeat: Seat | null): string {
  if (!m.winner) return "No winner: the game was aborted.";
  if (m.winner === "draw") return "Draw.";
  if (mySeat) return m.winner === mySeat ? "You won!" : "You lost.";
  return `${m.seats[m.winner as Seat].name || m.winner} (${m.winner}) won.`;
}

/** The rating before the game, kept with the seat so a reload still shows the change. */
export async function rememberRating(seat: StoredSeat, save: () => void): Promise<void> {
  const p = storedPlayer();
  if (!p || seat.ratingBefore !== undefined) return;
  const { body } = await api<Profile>("GET", `/players/${encodeURIComponent(p.id)}`);
  seat.ratingBefore = { rating: body.player.rating, games: body.player.games };
  save();
}

/** Waits (briefly) for the finished game to be rated, then writes "rating 1500 → 1512 (+12)". */
async function showRatingChange(seat: StoredSeat, decidedBy: string): Promise<void> {
  const out = $("#rating-change");
  const p = storedPlayer();
  const before = seat.ratingBefore;
  if (!p || !before) return;
  if (decidedBy === "aborted") return void (out.textContent = "Aborted games are not rated.");
  // Rating is applied just after the game ends; a busy server may take a few seconds.
  for (let i = 0; i < 40; i++) {
    const { body } = await api<Profile>("GET", `/players/${encodeURIComponent(p.id)}`);
    if (body.player.games > before.games) {
      const d = body.player.rating - before.rating;
      const provisional = body.player.provisional;
      out.replaceChildren(
        `Rating ${before.rating} → `,
        ratingEl(body.player.rating, provisional),
        ` (${d >= 0 ? "+" : "−"}${Math.abs(d)})${body.player.rank ? `, ${body.player.rank}` : ""}`,
        // A new rating moves a lot: said here, where the big first change is seen (docs/RULES.md, "Ratings").
        provisional ? el("span", { class: "muted", text: ", provisional: it moves a lot over the first games" }) : "",
        ".",
      );
      return;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * A new game like this one: the house at the same level, or otherwise a new friend invite. Friend and
 * quick-match games are offered to the same opponent instead (RematchOffer).
 */
async function rematch(record: GameRecord): Promise<string> {
  const name = storedPlayer()?.name;
  if (record.opponent === "house") {
    const { body } = await seatRequest("/games", { opponent: "house", level: record.level ?? "normal", ruleset: record.ruleset, name, reserveSeat: true });
    return takeSeat(body);
  }
  const { body } = await seatRequest<SeatAnswer>("/games", { opponent: "friend", ruleset: record.ruleset, name, reserveSeat: true });
  return takeSeat(body, { inviteUrl: body.inviteUrl });
}

let shown = false;

/** The friend or quick-match rematch of this page, once the end panel shows one (its room messages go there). */
export let rematchOffer: RematchOffer | null = null;

export function drawEnd(
  m: ViewModel,
  ctx: {
    mySeat: Seat | null;
    gameId: string;
    seat: StoredSeat | null;
    record: () => Promise<GameRecord>;
    save: () => void;
    send: (type: "rematch" | "declineRematch") => boolean;
  },
): void {
  const end = $("#end");
  end.hidden = m.status !== "finished";
  if (end.hidden) return;
  $("#end-title").textContent = endTitle(m, ctx.mySeat);
  $("#end-detail").textContent = `Final score A ${m.score.A} – B ${m.score.B} after ${plural(m.moveCount, "move")}: ${decidedText(m.decidedBy)}.`;
  const id = encodeURIComponent(ctx.gameId);
  const played = !(m.decidedBy === "aborted" && m.moveCount === 0);
  $("#end-links").replaceChildren(
    ...(played
      ? [el("a", { href: `/review/${id}`, text: "Review the game" }), " · ", el("a", { href: `/replay/${id}`, id: "replay-link", text: "Replay" }), " · "]
      : []),
    el("a", { href: "/", text: "New game" }),
  );
  if (shown) return;
  shown = true;
  if (ctx.seat) void showRatingChange(ctx.seat, m.decidedBy).catch(() => undefined);
  const button = $<HTMLButtonElement>("#rematch");
  if (!ctx.mySeat || !ctx.seat) return;
  const seat = ctx.seat;
  void ctx.record().then(
    (record) => {
      // A tournament's or a league's game offers none: its pairings decide who meets next.
      if (record.tournamentId)
        $("#end-links").append(" · ", el("a", { href: `/tournaments/${encodeURIComponent(record.tournamentId)}`, text: "Back to the tournament" }));
      if (record.tournamentId || record.leagueId) return;
      if (record.opponent === "friend" || record.opponent === "quick") rematchOffer = new RematchOffer(ctx.gameId, seat, ctx.send);
      else button.hidden = false;
    },
    () => undefined,
  );
  button.addEventListener("click", () => {
    if (rematchOffer) return;
    button.disabled = true;
    void ctx
      .record()
      .then(rematch)
      .then((href) => location.assign(href))
      .catch((e: unknown) => {
        $("#rematch-error").textContent = errorText(e);
        button.disabled = false;
      });
  });
}
