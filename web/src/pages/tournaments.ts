// /tournaments: every tournament, newest first (`GET /tournaments`), each linking to its page, and a form
// that creates a swiss tournament. The director token the creation answers is kept in this browser, so
// the tournament page shows its creator the Start button.
import { $, api, el, errorText } from "../lib/api";
import { formatName, saveTournament, statusName, type TournamentView } from "../lib/tournament";

function roundText(t: TournamentView): string {
  if (t.format !== "swiss") return t.round ? `round ${t.round}` : "";
  return t.status === "open" ? `${t.rounds} rounds` : `round ${t.round} of ${t.rounds}`;
}

function listTable(list: readonly TournamentView[]): HTMLElement {
  return el(
    "table",
    { class: "standings tournaments-list" },
    el("thead", {}, el("tr", {}, ...["Name", "Format", "Status", "Entrants", "Round"].map((h) => el("th", { scope: "col", text: h })))),
    el(
      "tbody",
      {},
      ...list.map((t) =>
        el(
          "tr",
          { "data-id": t.id },
          el("td", {}, el("a", { href: `/tournaments/${encodeURIComponent(t.id)}`, text: t.name })),
          el("td", { text: formatName(t.format) }),
          el("td", { "data-status": t.status, text: statusName(t.status) }),
          el("td", { text: String(t.entrants.length) }),
          el("td", { text: roundText(t) }),
        ),
      ),
    ),
  );
}

async function load(): Promise<void> {
  try {
    const { tournaments } = (await api<{ tournaments: TournamentView[] }>("GET", "/tournaments?limit=50")).body;
    $("#list").replaceChildren(
      tournaments.length ? listTable(tournaments) : el("p", { class: "muted", text: "No tournaments yet: create the first one below." }),
    );
    document.body.dataset.ready = "true";
  } catch (e) {
    $("#list").replaceChildren(el("p", { class: "error", text: `Could not load the tournaments: ${errorText(e)}` }));
  }
}

$("#refresh").addEventListener("click", () => void load());

const form = $<HTMLFormElement>("#create-form");
form.addEventListener("submit", (ev) => {
  ev.preventDefault();
  const button = $<HTMLButtonElement>("#create");
  const out = $("#create-error");
  button.disabled = true;
  out.textContent = "";
  const body = {
    name: $<HTMLInputElement>("#t-name").value.trim(),
    format: "swiss",
    rounds: Number($<HTMLInputElement>("#t-rounds").value),
    ruleset: $<HTMLSelectElement>("#t-ruleset").value,
  };
  api<{ tournament: TournamentView; directorToken: string }>("POST", "/tournaments", body)
    .then(({ body: created }) => {
      saveTournament(created.tournament.id, { director: created.directorToken });
      location.assign(`/tournaments/${encodeURIComponent(created.tournament.id)}`);
    })
    .catch((e: unknown) => {
      out.textContent = `Could not create the tournament: ${errorText(e)}`;
      button.disabled = false;
    });
});

void load();
