/** The agents context's public face: hosted agent challenges (service, routes, request schemas). */
export { ChallengeService, type ChallengeDeps } from "./service";
export { agentsRouter } from "./routes";
export { CreateChallengeBody, AcceptChallengeBody, ResultBody, HistoryQuery, ChallengeToken } from "./schemas";
