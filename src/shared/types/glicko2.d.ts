declare module "glicko2" {
  export interface Glicko2Player {
    getRating(): number;
    getRd(): number;
    getVol(): number;
  }
  export class Glicko2 {
    constructor(settings?: { tau?: number; rating?: number; rd?: number; vol?: number });
    makePlayer(rating?: number, rd?: number, vol?: number): Glicko2Player;
    /** Each match is [player1, player2, outcome for player1: 1 win, 0.5 draw, 0 loss]. */
    updateRatings(matches: Array<[Glicko2Player, Glicko2Player, number]>): void;
  }
}
