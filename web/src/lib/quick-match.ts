// A quick-match search over REST that can be stopped at any moment. The ticket is asked for without
// waiting (so it is known at once), then long-polled; stopping aborts the poll and deletes the ticket,
// including one whose creating request was still on its way when the search was stopped.
import { api, ApiError, seatRequest, type SeatAnswer } from "./api";

type TicketAnswer = { status: "queued"; ticket: string } | ({ status: "matched"; ticket: string } & SeatAnswer);

export interface QuickSearch {
  /** The seat once paired; null when the search was stopped first. */
  result: Promise<SeatAnswer | null>;
  /** Stops the search and removes its ticket; answers the seat if the pairing had already happened. */
  cancel(): Promise<SeatAnswer | null>;
}

const ticketPath = (t: string) => `/games/quick-match/${encodeURIComponent(t)}`;

export function startQuickMatch(body: { ruleset: string; name?: string }): QuickSearch {
  const poll = new AbortController();
  let stopped = false;
  // A matched answer then carries the seat's reservation, which the play page connects with.
  const created = seatRequest<TicketAnswer>("/games/quick-match", { ...body, wait: 0, reserveSeat: true });

  async function run(): Promise<SeatAnswer | null> {
    let out = (await created).body;
    while (out.status === "queued" && !stopped) {
      try {
        out = (await api<TicketAnswer>("GET", `${ticketPath(out.ticket)}?timeout=20`, undefined, poll.signal)).body;
      } catch (e) {
        if (stopped) return null;
        throw e;
      }
    }
    return out.status === "matched" && !stopped ? out : null;
  }

  async function cancel(): Promise<SeatAnswer | null> {
    stopped = true;
    poll.abort();
    // The creating request is never aborted: once sent, its ticket may exist on the server, so it is
    // awaited for the ticket id and then deleted.
    const first = (await created).body;
    try {
      await api("DELETE", ticketPath(first.ticket));
      return null;
    } catch (e) {
      if (!(e instanceof ApiError) || e.code !== "already_joined") throw e;
      const now = (await api<TicketAnswer>("GET", `${ticketPath(first.ticket)}?timeout=0`)).body;
      return now.status === "matched" ? now : null;
    }
  }

  return { result: run(), cancel };
}
