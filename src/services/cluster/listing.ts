/** The one place that reaches into a Colyseus room's private listing. */
import { matchMaker, type Room } from "@colyseus/core";

/**
 * Makes a room that lost its game forget its matchmaking listing before it closes: closing a room removes
 * the listing stored under its room id, which by now is the new owner's (room id = game id). A listing
 * under an id nobody uses is removed instead.
 */
export function detachListing(room: Room): void {
  const listing = (room as unknown as { _listing?: { roomId?: string } })._listing;
  if (listing?.roomId) listing.roomId = `${listing.roomId}~moved`;
}

/** Writes a room's listing again (a peer dropped it while this process was stalled, yet the room kept its game). */
export async function relist(room: Room): Promise<void> {
  const listing = (room as unknown as { _listing?: { roomId?: string } })._listing;
  if (listing?.roomId) await matchMaker.driver.persist(listing as never);
}

/** Colyseus' own clean-up of a dead process: its room listings and its matchmaking stats. */
export async function dropListings(processId: string): Promise<void> {
  await matchMaker.driver.cleanup?.(processId);
  await matchMaker.stats.excludeProcess(processId);
}
