import type { Seat } from "./types";

/** The seat across the board from `seat`. */
export const otherSeat = (seat: Seat): Seat => (seat === "A" ? "B" : "A");
