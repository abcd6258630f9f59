// The home page: start a game (house, friend invite, quick match) and list live public games to watch.
import { $, action, api, el, errorText, lastName, plural, seatRequest, storedPlayer, takeSeat, type SeatAnswer } from "../lib/api";
import type { GameList } from "../lib/api-types";
import { startQuickMatch, type QuickSearch } from "../lib/quick-match";

const nameInput = $<HTMLInputElement>("#name");
nameInput.value = lastName();
const name = () => nameInput.value.trim() || undefined;
const select = (id: string) => $<HTMLSelectElement>(id).value;

action($<HTMLButtonElement>("#play-house"), $("#house-error"), async () => {
  const { body } = await seatRequest("/games", {
    opponent: "house",
    level: select("#house-level"),
    ruleset: select("#house-ruleset"),
    name: name(),
    reserveSeat: true,
  });
  location.assign(takeSeat(body));
});

action($<HTMLButtonElement>("#invite"), $("#friend-error"), async () => {
  const { body } = await seatRequest<SeatAnswer>("/games", { opponent: "friend", ruleset: select("#friend-ruleset"), name: name(), reserveSeat: true });
  // The invite link is kept with the seat, so the game's waiting page can show it again.
  const playUrl = takeSeat(body, { inviteUrl: body.inviteUrl });
  $<HTMLInputElement>("#invite-url").value = body.inviteUrl ?? "";
  $<HTMLAnchorElement>("#invite-play").href = playUrl;
  $("#invite-out").hidden = false;
  $<HTMLInputElement>("#invite-url").select();
});

$("#copy-invite").addEventListener("click", () => void copyInvite());
async function copyInvite(): Promise<void> {
  const url = $<HTMLInputElement>("#invite-url").value;
  // The clipboard API needs a secure context; selecting the text is the fallback.
  await navigator.clipboard?.writeText(url).then(
    () => void ($("#copy-invite").textContent = "Copied"),
    () => $<HTMLInputElement>("#invite-url").select(),
  );
}

// ---- quick match: stoppable at any moment (see lib/quick-match.ts) --------------------------------
let search: QuickSearch | null = null;
const quickButton = $<HTMLButtonElement>("#quick");
const cancelButton = $<HTMLButtonElement>("#quick-cancel");
const quickStatus = $("#quick-status");

function searching(on: boolean): void {
  quickButton.disabled = on;
  cancelButton.hidden = !on;
}

quickButton.addEventListener("click", () => {
  if (search) return;
  $("#quick-error").textContent = "";
  quickStatus.textContent = "Looking for an opponent…";
  searching(true);
  const s = startQuickMatch({ ruleset: select("#quick-ruleset"), name: name() });
  search = s;
  void s.result
    .then((matched) => {
      if (!matched) return;
      quickStatus.textContent = "Opponent found.";
      location.assign(takeSeat(matched));
    })
    .catch((e: unknown) => {
      if (search === s) $("#quick-error").textContent = errorText(e);
    })
    .finally(() => {
      if (search !== s) return;
      search = null;
      searching(false);
    });
});

cancelButton.addEventListener("click", () => {
  const s = search;
  if (!s) return;
  // The buttons come back at once; the ticket is deleted in the background.
  search = null;
  searching(false);
  quickStatus.textContent = "Search stopped.";
  void s
    .cancel()
    .then((late) => {
      if (!late) return;
      // The pairing won the race: the seat is real and an opponent is waiting, so it is offered, not hidden.
      const href = takeSeat(late);
      quickStatus.replaceChildren("An opponent was found just as you stopped. ", el("a", { href, text: "Play that game" }));
    })
    .catch((e: unknown) => void ($("#quick-error").textContent = `The search could not be stopped: ${errorText(e)}`));
});

// A quick-match rematch arrives as /?quick=<ruleset>: the search starts with that ruleset.
const quickRuleset = new URLSearchParams(location.search).get("quick");
if (quickRuleset && [...$<HTMLSelectElement>("#quick-ruleset").options].some((o) => o.value === quickRuleset)) {
  $<HTMLSelectElement>("#quick-ruleset").value = quickRuleset;
  history.replaceState(null, "", "/");
  quickButton.click();
}

// ---- live games -----------------------------------------------------------------------------------
async function refreshLive(): Promise<void> {
  const list = $("#live-games");
  try {
    const { body } = await api<GameList>("GET", "/games?status=active&limit=20");
    list.replaceChildren(
      ...body.games.map((g) =>
        el(
          "li",
          {},
          el("span", {
            text: `${g.players.A ?? "?"} vs ${g.players.B ?? "?"} · ${g.ruleset} · ${g.score.A}–${g.score.B} after ${plural(g.moveCount, "move")}`,
          }),
          el("a", { href: `/watch/${encodeURIComponent(g.id)}`, text: "Watch", "aria-label": `Watch ${g.players.A ?? "?"} versus ${g.players.B ?? "?"}` }),
        ),
      ),
    );
    if (!body.games.length) list.replaceChildren(el("li", { class: "muted", text: "No games are being played right now." }));
  } catch (e) {
    list.replaceChildren(el("li", { class: "error", text: `Could not load the games: ${errorText(e)}` }));
  }
}

/** Finished games, each with its replay page. */
async function refreshFinished(): Promise<void> {
  const list = $("#finished-games");
  try {
    const { body } = await api<GameList>("GET", "/games?status=finished&limit=10");
    list.replaceChildren(
      ...body.games.map((g) =>
        el(
          "li",
          {},
          el("span", { text: `${g.players.A ?? "?"} vs ${g.players.B ?? "?"} · ${g.ruleset} · ${g.score.A}–${g.score.B}` }),
          el("a", { href: `/replay/${encodeURIComponent(g.id)}`, text: "Replay", "aria-label": `Replay ${g.players.A ?? "?"} versus ${g.players.B ?? "?"}` }),
        ),
      ),
    );
    if (!body.games.length) list.replaceChildren(el("li", { class: "muted", text: "No finished games yet." }));
  } catch (e) {
    list.replaceChildren(el("li", { class: "error", text: `Could not load the games: ${errorText(e)}` }));
  }
}

// This browser's profile, once it has one.
const me = storedPlayer();
if (me) {
  $("#me").replaceChildren("Playing as ", el("a", { href: `/players/${encodeURIComponent(me.id)}`, text: me.name || me.id }), ": your rating and games.");
  $("#me").hidden = false;
}

$("#refresh").addEventListener("click", () => void Promise.all([refreshLive(), refreshFinished()]));
void refreshFinished();
void refreshLive();
setInterval(() => {
  if (document.visibilityState === "visible") void refreshLive();
}, 15000);
