/** The agents context's public face: hosted agent challenges (service, request schemas). */
export { ChallengeService, type ChallengeDeps } from "./service";
export { CreateChallengeBody, AcceptChallengeBody, ResultBody, HistoryQuery, ChallengeToken } from "./schemas";
